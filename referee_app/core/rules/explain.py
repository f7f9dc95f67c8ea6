"""The ruling in plain words for the referee, in French, Italian and English.

Built from the ruling itself (what goes back, who plays, who won), so it can never say
something the ruling does not.
"""
from __future__ import annotations

PHRASES = {
    "en": {
        "board_won": "{winner} wins the board: {w} points to {l}.",
        "striker": "The striking side", "opponent": "The opponent",
        "put_back": "Put back in the centre: {items}.",
        "own_coins": "{n} coin of the striking side|{n} coins of the striking side",
        "opp_coins": "{n} coin of the opponent|{n} coins of the opponent",
        "queen": "the queen",
        "dues": "The striking side owes {n} penalty coin, placed as soon as one of its coins is pocketed.|"
                "The striking side owes {n} penalty coins, placed as soon as its coins are pocketed.",
        "awaiting": "The queen must be covered with the next stroke.",
        "covered": "The queen is covered.",
        "covered_opp": "The queen counts for the opponent.",
        "break_retry": "The break is not made: the same side tries again.",
        "break_failed": "The break is not made.",
        "continues": "The striking side plays again.",
        "passes": "The turn passes to the opponent.",
        "nothing": "Nothing goes back to the centre.",
    },
    "fr": {
        "board_won": "{winner} gagne le board : {w} points à {l}.",
        "striker": "Le camp qui joue", "opponent": "L'adversaire",
        "put_back": "Replacer au centre : {items}.",
        "own_coins": "{n} jeton du camp qui joue|{n} jetons du camp qui joue",
        "opp_coins": "{n} jeton de l'adversaire|{n} jetons de l'adversaire",
        "queen": "la reine",
        "dues": "Le camp qui joue doit {n} jeton de pénalité, placé dès qu'un de ses jetons est logé.|"
                "Le camp qui joue doit {n} jetons de pénalité, placés dès que ses jetons sont logés.",
        "awaiting": "La reine doit être confirmée au tir suivant.",
        "covered": "La reine est confirmée.",
        "covered_opp": "La reine compte pour l'adversaire.",
        "break_retry": "Le break n'est pas réalisé : le même camp refait un essai.",
        "break_failed": "Le break n'est pas réalisé.",
        "continues": "Le camp qui joue rejoue.",
        "passes": "Le tour passe à l'adversaire.",
        "nothing": "Rien ne revient au centre.",
    },
    "it": {
        "board_won": "{winner} vince il board: {w} punti a {l}.",
        "striker": "Il giocatore di turno", "opponent": "L'avversario",
        "put_back": "Rimettere al centro: {items}.",
        "own_coins": "{n} pedina del giocatore di turno|{n} pedine del giocatore di turno",
        "opp_coins": "{n} pedina dell'avversario|{n} pedine dell'avversario",
        "queen": "la Regina",
        "dues": "Il giocatore di turno deve {n} pedina di penalità, da piazzare appena ne imbuca una.|"
                "Il giocatore di turno deve {n} pedine di penalità, da piazzare appena le imbuca.",
        "awaiting": "La Regina deve essere confermata con il tiro successivo.",
        "covered": "La Regina è confermata.",
        "covered_opp": "La Regina conta per l'avversario.",
        "break_retry": "La spaccata non è valida: lo stesso giocatore riprova.",
        "break_failed": "La spaccata non è valida.",
        "continues": "Il giocatore di turno continua.",
        "passes": "Il turno passa all'avversario.",
        "nothing": "Nulla torna al centro.",
    },
}


def _plural(template: str, n: int) -> str:
    one, many = template.split("|")
    return (one if n == 1 else many).format(n=n)


def explain(situation, ruling: dict) -> dict:
    out = {}
    for lang, p in PHRASES.items():
        sentences = []
        board = ruling["board"]
        if board["over"]:
            winner = board["winner"]
            loser = "opponent" if winner == "striker" else "striker"
            sentences.append(p["board_won"].format(winner=p[winner], w=board["points"][winner],
                                                   l=board["points"][loser]))
        else:
            ret = ruling["returned"]
            items = []
            if ret["queen"]:
                items.append(p["queen"])
            if ret["own"]:
                items.append(_plural(p["own_coins"], ret["own"]))
            if ret["opponent"]:
                items.append(_plural(p["opp_coins"], ret["opponent"]))
            sentences.append(p["put_back"].format(items=", ".join(items)) if items else p["nothing"])
            if ruling["after"]["dues"]:
                sentences.append(_plural(p["dues"], ruling["after"]["dues"]))
            queen = ruling["after"]["queen"]
            if queen != situation.queen:
                if queen == "awaiting_cover":
                    sentences.append(p["awaiting"])
                elif queen == "covered_by_striker":
                    sentences.append(p["covered"])
                elif queen == "covered_by_opponent":
                    sentences.append(p["covered_opp"])
            if situation.break_ and not ruling["break_made"]:
                sentences.append(p["break_retry"] if ruling["turn"] == "continues" else p["break_failed"])
            sentences.append(p[ruling["turn"]])
        out[lang] = " ".join(sentences)
    return out
