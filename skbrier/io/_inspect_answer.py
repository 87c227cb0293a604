"""Where an Inspect AI generation states its answer, token by token.

Inspect's multiple-choice templates make the model reply ``ANSWER: B`` (the
chain-of-thought ones put it on the last line), so the first generated token
is ``ANSWER`` and its probability says nothing about the answer.  The
confidence of the answer is the probability of the token that carries the
answer letter.  :func:`answer_position` finds that token in
``output.choices[0].logprobs.content``, in this order:

1. the text of the tokens is searched with the two patterns of Inspect's
   ``parse_answers`` (``solver/_multiple_choice.py``: ``^ANSWER\\s*:\\s*X``
   per line, else ``ANSWER\\s*:\\s*X`` anywhere; the last match counts) and
   the answer is the token holding the first character of ``X``;
2. otherwise the last token that is a choice letter while its
   ``top_logprobs`` list at least two choice letters (a reply of a bare
   letter);
3. otherwise the last token equal to the scored answer
   (``scores.<name>.answer``, e.g. ``Yes`` for a ``match`` scorer).

A reply naming several letters (``ANSWER: A, C``) has no single answer
probability and is malformed, as is a reply where none of the three finds a
token.
"""

from __future__ import annotations

import re
from typing import Any

from ._parse import Bad, get, show, to_float

__all__ = ["answer_position", "choice_letters"]

# inspect_ai/solver/_multiple_choice.py, parse_answers
_STRICT = re.compile(r"^ANSWER\s*:\s*([A-Za-z\d ,]+)\s*(?:$|\n|\.)", re.I | re.M)
_LOOSE = re.compile(r"ANSWER\s*:\s*([A-Za-z\d ,]+)(?:[^\w]|\n|$|\.)", re.I)
# what may surround a letter inside its token (" B", "B.", "(B)", "**B**")
_AROUND = " \t\r\n.,:;()[]*'\"`"


def choice_letters(sample: dict[str, Any]) -> list[str] | None:
    """Inspect's answer characters of the sample's choices (A, B, ..., then 1, 2)."""
    choices = sample.get("choices")
    if not isinstance(choices, list) or not choices:
        return None
    # inspect_ai/_util/answer.py, answer_character
    return [chr(ord("A") + i) if i < 26 else str(i - 25) for i in range(len(choices))]


def _letter(token: str) -> str:
    return token.strip(_AROUND).upper()


def _tokens(content: list[Any], base: str) -> list[str]:
    out = []
    for j, item in enumerate(content):
        tok = get(item, "token", f"{base}[{j}].token")
        if not isinstance(tok, str):
            raise Bad(f"{base}[{j}].token", f"expected a string, got {show(tok)}")
        out.append(tok)
    return out


def _by_pattern(tokens: list[str], letters: list[str] | None, base: str) -> int | None:
    text = "".join(tokens)
    found = list(_STRICT.finditer(text)) or list(_LOOSE.finditer(text))
    if not found:
        return None
    m = found[-1]
    answer = m.group(1).strip().rstrip(".").upper()
    parts = [p for p in re.split(r"[ ,]+|\bAND\b", answer) if p]
    if not parts:  # e.g. "ANSWER: (B)": Inspect's parse_answers reads no answer
        raise Bad(
            base,
            f"the reply {show(text[m.start() : m.end() + 8])} has no choice letter right "
            "after 'ANSWER:' (Inspect's parse_answers reads no answer there)",
        )
    valid = all((p in letters) if letters else len(p) == 1 for p in parts)
    if not valid:
        raise Bad(
            base,
            f"the reply's answer {show(m.group(1).strip())} is not a choice letter"
            + (f" ({', '.join(letters)})" if letters else ""),
        )
    if len(parts) > 1:
        raise Bad(
            base,
            f"the reply answers {show(m.group(1).strip())}: several choices have no "
            "single answer probability",
        )
    start = m.start(1) + (len(m.group(1)) - len(m.group(1).lstrip()))
    pos = 0
    for j, tok in enumerate(tokens):
        if pos <= start < pos + len(tok):
            if _letter(tok) != parts[0]:
                raise Bad(
                    f"{base}[{j}].token",
                    f"the answer letter {parts[0]!r} shares the token {show(tok)} with "
                    "other text: no probability of the letter alone",
                )
            return j
        pos += len(tok)
    return None  # pragma: no cover - start lies inside the text


def _top_letters(item: Any, letters: set[str]) -> set[str]:
    top = item.get("top_logprobs") if isinstance(item, dict) else None
    if not isinstance(top, list):
        return set()
    return {
        _letter(t["token"])
        for t in top
        if isinstance(t, dict) and isinstance(t.get("token"), str)
    } & letters


def answer_position(
    content: list[Any], letters: list[str] | None, scored: Any, base: str
) -> tuple[int, float]:
    """Index and log-probability of the token carrying the answer.

    ``content`` is ``output.choices[0].logprobs.content``, ``letters`` the
    choice letters (None when the sample lists no choices), ``scored`` the
    scorer's ``answer`` and ``base`` the field name used in messages.
    """
    tokens = _tokens(content, base)
    j = _by_pattern(tokens, letters, base)
    if j is None:
        allowed = set(letters) if letters else {chr(c) for c in range(65, 91)}
        for k in range(len(tokens) - 1, -1, -1):
            if (
                _letter(tokens[k]) in allowed
                and len(_top_letters(content[k], allowed)) >= 2
            ):
                j = k
                break
    if j is None and isinstance(scored, str) and scored.strip():
        want = scored.strip().casefold()
        for k in range(len(tokens) - 1, -1, -1):
            if tokens[k].strip().casefold() == want:
                j = k
                break
    if j is None:
        raise Bad(
            base,
            "no token carries the answer (looked for 'ANSWER: X', a choice letter whose "
            f"top_logprobs are choice letters, and the scored answer {show(scored)}); "
            "read the log with confidence='none' for accuracy only",
        )
    field = f"{base}[{j}].logprob"
    lp = to_float(get(content[j], "logprob", field), field)
    if lp > 0.0:
        raise Bad(field, f"{lp!r} > 0 is not a log-probability")
    return j, lp
