"""What a referee is told when the records server cannot be used: an outage (the window waits and
retries) is told apart from a missing password (no retry mends it; the message says where it goes)."""
from __future__ import annotations

import psycopg
import pytest
import sqlalchemy as sa

from referee_app.core.storage.database import Database
from referee_app.core.storage.errors import StoreError, StoreUnavailable


def test_a_server_name_that_does_not_resolve_is_an_outage_not_a_failure():
    # .invalid never resolves (RFC 2606): a table machine whose Wi-Fi lost the club's name server
    with pytest.raises(StoreUnavailable) as err:
        Database("postgresql://table07@carrom-server.invalid/carrom")
    assert err.value.reason == "unavailable" and err.value.retryable
    assert "check the network" in err.value.problem


@pytest.mark.parametrize("libpq_says", [
    'connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: fe_sendauth: no password supplied',
    'connection to server at "10.0.0.2", port 5432 failed: FATAL:  password authentication failed for user "t7"',
])
def test_a_missing_or_wrong_password_says_where_secrets_go_and_is_not_retried(records_file, libpq_says):
    database = Database(records_file)
    database.dialect = "postgresql"     # the message as libpq gives it, through the same translation
    with pytest.raises(StoreError) as err:
        with database.translated():
            raise sa.exc.OperationalError("connect", {}, psycopg.OperationalError(libpq_says))
    assert not isinstance(err.value, StoreUnavailable)
    assert err.value.reason == "credentials"
    assert "~/.pgpass" in err.value.problem and "never in the address" in err.value.problem
