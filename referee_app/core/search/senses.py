"""Words with two carrom senses, told apart by the words around them (issue 33, class 3).

`tour` (Italian `turno`; `turn` too, as players say it for a round) is a player's turn in the
playing rules and a round in the tournament's texts (`7 tours de 40 à 59 joueurs`, `les
appariements du deuxième tour`); `main` is the hand, and in jargon the turn. Typed alone, such a
word stays both (the thesaurus's reading); typed beside words that go with one sense only, it is
read in that sense: the concept (a thesaurus id) the sense names; and for a round or a turn, in
the texts of the other kind (a tournament clause for a turn, a playing rule for a round), the
ambiguous word itself counts for less (`Ranker`: the source a sense fits).

The neighbours are written out as folded words (no stemming: `tour` and `tournoi` share a French
stem, and a handful of forms says what is meant more surely)."""
from __future__ import annotations

from .analysis import fold

TOURNAMENT, PLAY = "tournament", "play"
FITS = {"round": TOURNAMENT, "turn": PLAY}   # the kind of text in which a sense's concept is said

_ROUND_FR = ("tournoi", "tournois", "appariement", "appariements", "apparier", "apparie", "apparies",
             "ronde", "rondes", "suisse", "classement", "qualification", "qualifies", "poule", "poules",
             "participants", "inscrits", "exempt", "exempte", "fantome", "deuxieme", "troisieme",
             "quatrieme", "cinquieme", "sixieme", "septieme", "competition", "elimination",
             "nombre")
_TURN_FR = ("jouer", "joue", "jouent", "frappe", "frapper", "tir", "tirer", "coup", "main", "perd", "perdre",
            "perdu", "garde", "garder", "passe", "passer", "rejouer", "rejoue", "avant", "hors", "son", "mon",
            "ton", "reine", "pion", "pions", "jeton", "jetons", "percuteur", "striker", "faute", "penalite",
            "casse", "empoche", "rentre")
_ROUND_IT = ("torneo", "tornei", "accoppiamento", "accoppiamenti", "abbinamento", "abbinamenti", "svizzero",
             "classifica", "girone", "gironi", "partecipanti", "iscritti", "terzo", "quarto", "quinto",
             "eliminazione", "competizione", "numero")
_TURN_IT = ("giocare", "gioca", "giocato", "tiro", "tirare", "colpo", "perde", "perdere", "mantiene", "passa",
            "fuori", "prima", "suo", "mio", "tuo", "regina", "pedina", "pedine", "striker", "fallo",
            "penalita", "spaccata", "imbucata", "imbucato")

_ROUND_EN = ("tournament", "tournaments", "pairing", "pairings", "paired", "swiss", "standings", "ranking",
             "bye", "third", "fourth", "fifth", "participants", "entrants", "qualification", "knockout", "number")
_TURN_EN = ("play", "plays", "played", "playing", "shot", "stroke", "strike", "lose", "loses", "lost", "keep",
            "keeps", "pass", "passes", "before", "out", "his", "her", "my", "your", "their", "queen", "coin",
            "coins", "striker", "foul", "penalty", "pocket", "pocketed", "whose")

# `main` is the hand, and in jargon the turn (`garder la main`, which the thesaurus reads as a
# phrase): beside what a hand does or touches it is the hand; `mains`, in the plural, always is.
_HAND_FR = ("deux", "seule", "une", "toucher", "touche", "touchent", "poser", "pose", "coude", "bras", "doigt",
            "doigts", "pouce", "surface", "gauche", "droite", "utiliser", "utilise", "autre", "plat", "paume",
            "poignet")
_TURN_HAND_FR = ("garde", "garder", "perd", "perdre", "passe", "passer", "reprend", "reprendre", "rend",
                 "qui", "adversaire")

# `casse` typed without its accent is both the break (`la casse`) and broken (`cassé`), and the
# Italian `spaccata` both the break and split: a coin broken in two, replaced, is the other sense.
_BROKEN_FR = ("deux", "morceaux", "morceau", "fendu", "fendue", "ebreche", "ebrechee", "fissure", "fissuree",
              "abime", "abimee", "remplacer", "remplace", "changer", "change", "neuf", "nouveau", "rompu")
_BREAK_FR = ("rosace", "premier", "premiere", "coup", "envoi", "pendant", "avant", "apres", "rate", "ratee",
             "rater", "rejouer", "essai", "essais", "reussi", "reussie", "percuteur", "striker", "touche",
             "ouverture", "lors", "temps", "secondes")
_BROKEN_IT = ("due", "pezzi", "rotta", "rotto", "sostituire", "sostituita", "sostituito", "cambiare", "cambiata",
              "nuova", "nuovo", "crepata", "scheggiata")
_BREAK_IT = ("prima", "dopo", "durante", "tentativo", "tentativi", "striker", "regina", "valida", "valido",
             "secondi", "via", "primo", "tiro", "effettuare", "effettua", "apertura")

# a word with two senses (folded) -> each sense's concept (a thesaurus id) -> its neighbours (folded)
SENSES: dict[str, dict[str, frozenset[str]]] = {
    **{w: {"round": frozenset(_ROUND_FR), "turn": frozenset(_TURN_FR)} for w in ("tour", "tours")},
    **{w: {"round": frozenset(_ROUND_IT), "turn": frozenset(_TURN_IT)} for w in ("turno", "turni")},
    **{w: {"round": frozenset(_ROUND_EN), "turn": frozenset(_TURN_EN)} for w in ("turn", "turns")},
    "main": {"hand": frozenset(_HAND_FR), "turn": frozenset(_TURN_HAND_FR)},
    **{w: {"broken": frozenset(_BROKEN_FR), "break": frozenset(_BREAK_FR)} for w in ("casse", "cassee", "casses")},
    **{w: {"broken": frozenset(_BROKEN_IT), "break": frozenset(_BREAK_IT)} for w in ("spaccata", "spaccato", "spaccate")},
}
ALWAYS = {"mains": "hand"}   # a word of one sense in this form
WRITTEN = {"cassé": "broken", "cassée": "broken", "cassés": "broken", "cassées": "broken"}   # its accent says it
OFF_SENSE_FACTOR = 0.3    # a word of two senses, read in one, where it may say the other
COUNTED = frozenset({"round"})   # the senses a question for a number goes with: rounds are counted, turns not


def sense(words: list[str], at: int, counted: bool = False) -> str | None:
    """The concept (a thesaurus id) in which the query's word at `at` is meant, when its neighbours say it: the
    sense more of the other words go with (none when no word, or as many, go with each); `counted`:
    the query asks how many (`combien de tours`, its interrogative no longer among the words)."""
    if words[at].lower() in WRITTEN:
        return WRITTEN[words[at].lower()]
    word = fold(words[at])
    if word in ALWAYS:
        return ALWAYS[word]
    senses = SENSES.get(word)
    if not senses:
        return None
    others = {fold(w) for i, w in enumerate(words) if i != at}
    said = {name: len(others & context) + (counted and name in COUNTED) for name, context in senses.items()}
    best = max(said.values())
    chosen = [name for name, n in said.items() if n == best]
    return chosen[0] if best and len(chosen) == 1 else None


