"""The bundle's entry point: the same `carrom-referee` command as the installed package."""
import sys

from referee_app.cli import main

if __name__ == "__main__":
    sys.exit(main())
