"""The few texts drawn on the pictures, in Spanish (default) and English.

Pictures carry little text, so it lives here in a small dictionary rather than in the
gettext catalogs the chat messages use (design.md, rule 8).
"""

from __future__ import annotations

from typing import Final

__all__ = ["LANGUAGES", "STRINGS", "team_name", "text"]

LANGUAGES: Final = ("es", "en")

STRINGS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "hand": "Mano {n}",
        "target": "Partida a {n}",
        "team0": "Azul",
        "team1": "Rojo",
        "to_move": "Le toca",
        "seconds": "{n} s",
        "passed": "Pasó",
        "lacks": "sin {nums}",
        "robot": "robot",
        "away": "ausente",
        "last_move": "Última jugada",
        "played": "{name}: {tile}",
        "passed_move": "{name} pasó",
        "left": "izq.",
        "right": "der.",
        "pass": "Paso",
        "waiting_opening": "Sale {name}",
        "opening_with": "Sale {name} con {tile}",
        "you_open_with": "Sales tú con el {tile}",
        "your_tiles": "Tus fichas",
        "your_turn": "Te toca",
        "turn_of": "Le toca a {name}",
        "ends": "Puntas",
        "no_tiles": "Sin fichas",
        "must_pass": "No llevas juego:",
        "hand_over": "Mano terminada",
        "domino_by": "¡Dominó de {name}!",
        "blocked": "¡Tranca!",
        "domino_end": "¡Dominó!",
        "blocked_team": "Gana {team}: {a} puntos contra {b}",
        "blocked_individual": "Gana {team}: {name} tiene menos ({n})",
        "blocked_tie": "Empate: nadie anota",
        "capicua": "¡Capicúa! +{n}",
        "capicua_plain": "¡Capicúa!",
        "pips_left": "Puntos que quedan",
        "last_tile": "Última ficha: {tile}",
        "hand_total": "mano → total",
        "hand_points": "{team} +{n}",
        "match_over": "¡Fin de la partida!",
        "winners": "Ganan {a} y {b}",
        "stake": "Apuesta: ${n}",
        "stake_net": "Apuesta: ${n} · resultado neto",
        "no_stake": "Sin apuesta",
        "seat": "Asiento {n}",
        "free": "libre",
        "held_for": "para {name}",
        "seated": "en su asiento",
        "waiting_title": "Esperando jugadores",
        "starting_title": "¡Mesa completa!",
        "seated_count": "Asientos: {n}\u00a0de\u00a04",
        "robots_in": "Robots en",
        "robots_fill": "Los robots se sientan en {n} s",
        "robots_later": "Los robots se sientan si nadie llega",
        "starts_in": "Empieza en",
        "starts": "La partida empieza en {n} s",
        "starts_soon": "La partida empieza enseguida",
        "rules": "Reglas",
        "preset_changed": "{name}, con cambios",
        "target_points": "Partida a {n} puntos",
        "turn_time": "{n} s por turno",
        "counting_opponents": "Cuentan los puntos de los rivales",
        "counting_all": "Cuentan los puntos de todos",
        "capicua_bonus": "Capicúa: +{n}",
        "preset_venezolano": "Venezolano",
        "preset_internacional": "Internacional",
        "preset_espanol": "Español",
        "preset_dominicano": "Dominicano",
        "boneyard": "Pozo: {n}",
    },
    "en": {
        "hand": "Hand {n}",
        "target": "Match to {n}",
        "team0": "Blue",
        "team1": "Red",
        "to_move": "To move",
        "seconds": "{n} s",
        "passed": "Passed",
        "lacks": "no {nums}",
        "robot": "robot",
        "away": "away",
        "last_move": "Last move",
        "played": "{name}: {tile}",
        "passed_move": "{name} passed",
        "left": "left",
        "right": "right",
        "pass": "Pass",
        "waiting_opening": "{name} opens",
        "opening_with": "{name} opens with {tile}",
        "you_open_with": "You open with {tile}",
        "your_tiles": "Your tiles",
        "your_turn": "Your turn",
        "turn_of": "{name} to move",
        "ends": "Open ends",
        "no_tiles": "No tiles",
        "must_pass": "Nothing fits:",
        "hand_over": "Hand over",
        "domino_by": "Domino by {name}!",
        "blocked": "Blocked!",
        "domino_end": "Domino!",
        "blocked_team": "{team} wins: {a} pips against {b}",
        "blocked_individual": "{team} wins: {name} holds the fewest ({n})",
        "blocked_tie": "Tie: nobody scores",
        "capicua": "Capicúa! +{n}",
        "capicua_plain": "Capicúa!",
        "pips_left": "Pips left",
        "last_tile": "Last tile: {tile}",
        "hand_total": "hand → total",
        "hand_points": "{team} +{n}",
        "match_over": "Match over!",
        "winners": "{a} and {b} win",
        "stake": "Stake: ${n}",
        "stake_net": "Stake: ${n} · net result",
        "no_stake": "No stake",
        "seat": "Seat {n}",
        "free": "free",
        "held_for": "for {name}",
        "seated": "in their seat",
        "waiting_title": "Waiting for players",
        "starting_title": "Table full!",
        "seated_count": "Seats: {n}\u00a0of\u00a04",
        "robots_in": "Robots in",
        "robots_fill": "Robots take the free seats in {n} s",
        "robots_later": "Robots take the free seats if nobody comes",
        "starts_in": "Starts in",
        "starts": "The match starts in {n} s",
        "starts_soon": "The match starts right away",
        "rules": "Rules",
        "preset_changed": "{name}, changed",
        "target_points": "Match to {n} points",
        "turn_time": "{n} s per turn",
        "counting_opponents": "The opponents' pips count",
        "counting_all": "Everyone's pips count",
        "capicua_bonus": "Capicúa: +{n}",
        "preset_venezolano": "Venezuelan",
        "preset_internacional": "International",
        "preset_espanol": "Spanish",
        "preset_dominicano": "Dominican",
        "boneyard": "Boneyard: {n}",
    },
}


def text(language: str, key: str, **params: object) -> str:
    """The picture text ``key`` in ``language`` (Spanish when unknown), formatted.

    Raises:
        KeyError: ``key`` is not a picture text.
    """
    table = STRINGS.get(language, STRINGS["es"])
    template = table[key]
    return template.format(**params) if params else template


def team_name(language: str, team: int) -> str:
    """The colour name of partnership ``team`` (0: seats 0 and 2, 1: seats 1 and 3)."""
    return text(language, "team0" if team == 0 else "team1")
