"""What MiniMax's answers mean, per protocol: an answer, :class:`Refused` (nothing created) or
:class:`Ambiguous` (may exist).

* **V1** answers errors as HTTP 200 with ``base_resp.status_code`` ≠ 0: documented definitive
  codes (:data:`REFUSAL_CODES`, including 1028/1030/2061 that only MiniMax's own CLI names)
  → ``Refused``; 1000/1001/1013/1024/1033 and anything unrecognized → ``Ambiguous``. At the HTTP
  level: 5xx and 408 → ``Ambiguous``; 429 → ``Refused`` (rate limit); other 4xx → ``Refused``;
  an unparseable body → ``Ambiguous``.
* **V2** uses real HTTP statuses with an OpenAI-style body whose message ends with the internal
  code in parentheses: 400, 401, 402, 422 and 429 are definitive (429 is a rate limit: backed
  off and retried like 1002); 500, 529, any other status, timeouts and resets are ambiguous —
  except the CLI-only codes 1028, 1030 and 2061, definitive whatever the status.

An authentication refusal (1004, 2049, V2's 401) says which platform the base URL points at:
a key works only on its own platform's host.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from app.domain.errors import FailReason
from app.providers.base import Ambiguous, ProviderError, Refused
from app.domain.numbers import as_int

if TYPE_CHECKING:  # the window imports these codes without the HTTP client
    from app.providers.http import Answer

#: Documented codes that mean "refused before anything was made" (nothing billed).
REFUSAL_CODES: dict[int, str] = {
    1002: "rate limit",
    1004: "authentication failed (check the API key)",
    1008: "insufficient balance",
    1026: "input content flagged as sensitive",
    1028: "quota used up",
    1030: "quota used up",
    1039: "token limit",
    1041: "connection limit",
    1042: "illegal characters in the input",
    2013: "invalid parameters",
    2038: "real-name verification required",
    2045: "rate growth limit",
    2049: "invalid API key",
    2056: "usage limit exceeded",
    2061: "this model is not in your plan",
}
#: Codes that say the server failed in an unknown way: the request may have been acted on.
AMBIGUOUS_CODES: dict[int, str] = {
    1000: "unknown error",
    1001: "request timeout",
    1013: "internal service error",
    1024: "internal error",
    1033: "system error",
}
#: Query answers with these codes are task outcomes (status Fail), not request errors.
TASK_FAILURE_CODES = frozenset({1026, 1027})
#: Codes of an authentication refusal (a key of another platform is refused the same way).
AUTH_CODES = frozenset({1004, 2049})

#: V2: statuses that refuse definitively (nothing was created), and their usual codes.
V2_DEFINITIVE: dict[int, int] = {400: 2013, 401: 1004, 402: 1008, 422: 1026, 429: 1002}
#: Codes known only from MiniMax's CLI: definitive whatever the status says.
CLI_DEFINITIVE_CODES = frozenset({1028, 1030, 2061})

#: MiniMax's codes by the class of refusal (or failure) they name.
REASON_OF_CODE: dict[int, FailReason] = {
    1002: FailReason.RATE_LIMIT,
    1041: FailReason.RATE_LIMIT,
    2045: FailReason.RATE_LIMIT,
    1004: FailReason.WRONG_KEY,
    2049: FailReason.WRONG_KEY,
    1008: FailReason.BALANCE,
    1026: FailReason.SENSITIVE_INPUT,
    1027: FailReason.SENSITIVE_OUTPUT,
    1028: FailReason.PLAN_QUOTA,
    1030: FailReason.PLAN_QUOTA,
    2056: FailReason.PLAN_QUOTA,
    2061: FailReason.NOT_IN_PLAN,
    2013: FailReason.INVALID_PARAMS,
    1039: FailReason.PROMPT_TOO_LONG,
    1042: FailReason.BAD_CHARACTERS,
    2038: FailReason.VERIFY_ACCOUNT,
    **{code: FailReason.SERVER_ERROR for code in AMBIGUOUS_CODES},
}


def reason_of(exc: ProviderError) -> FailReason:
    """Why a call was refused or has no trustworthy answer, typed: the raiser's own reason
    (the transport's: never sent, no answer, connection lost; an over-full answer), else the
    class of MiniMax's code, else what the outcome's kind says."""
    if exc.reason is not None:
        return exc.reason
    if isinstance(exc, Refused) and exc.never_sent:
        return FailReason.NEVER_SENT
    if exc.code is not None and exc.code in REASON_OF_CODE:
        return REASON_OF_CODE[exc.code]
    if isinstance(exc, Refused):
        return FailReason.REFUSED
    return FailReason.BAD_ANSWER


def failure_reason(code: int | None) -> FailReason:
    """Why the provider reports a task failed: its code's class (1026 input and 1027 output
    judged sensitive, …), else a plain provider failure."""
    found = REASON_OF_CODE.get(code) if code is not None else None
    return found if found is not None else FailReason.PROVIDER_FAILED


_TRAILING_CODE = re.compile(r"\((\d{3,6})\)\s*$")


def _auth(message: str, code: int | None, hint: str) -> str:
    return f"{message}; {hint}" if code in AUTH_CODES and hint else message


# -- V1 ---------------------------------------------------------------------------------------
def base_resp(raw: dict[str, Any]) -> tuple[int | None, str]:
    base = raw.get("base_resp")
    if not isinstance(base, dict):
        return None, ""
    code = as_int(base.get("status_code"))
    msg = base.get("status_msg")
    return code, msg if isinstance(msg, str) else ""


def v1_http(answer: Answer, what: str, hint: str = "") -> dict[str, Any]:
    """The HTTP level of a V1 answer: raise for a non-200 status or a non-JSON body; return the
    raw dict (with ``_retry_after``) for :func:`v1_raise_for_code`."""
    raw, status = answer.raw, answer.status
    code, msg = base_resp(raw)
    if status >= 500 or status == 408:
        raise Ambiguous(
            f"{what}: HTTP {status} from the provider",
            code=code,
            raw=raw,
            reason=FailReason.SERVER_ERROR if status >= 500 else FailReason.NO_ANSWER,
        )
    if status == 429:
        raise Refused(
            f"{what}: rate limited (HTTP 429)", code=1002, raw=raw, retry_after=answer.retry_after
        )
    if status >= 400:
        if code is not None and code in AMBIGUOUS_CODES:
            raise Ambiguous(f"{what}: HTTP {status}, code {code} {msg}".strip(), code=code, raw=raw)
        raise Refused(_auth(f"{what}: HTTP {status} {msg}".strip(), code, hint), code=code, raw=raw)
    if not isinstance(answer.body, dict):
        raise Ambiguous(f"{what}: the answer was not a JSON object (HTTP {status})", raw=raw)
    raw["_retry_after"] = answer.retry_after
    return raw


def v1_raise_for_code(raw: dict[str, Any], what: str, hint: str = "") -> None:
    """Raise for a nonzero ``base_resp.status_code``; return when it is 0."""
    code, msg = base_resp(raw)
    retry_after = raw.pop("_retry_after", None)
    if code == 0:
        return
    if code is None:
        raise Ambiguous(f"{what}: the answer has no base_resp status code", raw=raw)
    label = msg or REFUSAL_CODES.get(code) or AMBIGUOUS_CODES.get(code) or "unrecognized error"
    if code in REFUSAL_CODES:
        raise Refused(
            _auth(f"{what}: refused, code {code} ({label})", code, hint),
            code=code,
            raw=raw,
            retry_after=retry_after,
        )
    raise Ambiguous(f"{what}: code {code} ({label})", code=code, raw=raw, retry_after=retry_after)


# -- V2 ---------------------------------------------------------------------------------------
def v2_error_parts(raw: dict[str, Any]) -> tuple[str, str, int | None]:
    """(error type, message, internal code) of a V2 error body; empty where absent."""
    err = raw.get("error")
    if not isinstance(err, dict):
        return "", "", None
    kind = err.get("type") if isinstance(err.get("type"), str) else ""
    message = err.get("message") if isinstance(err.get("message"), str) else ""
    found = _TRAILING_CODE.search(message)
    return kind, message, int(found.group(1)) if found else None


def v2_checked(answer: Answer, what: str, hint: str = "") -> dict[str, Any]:
    """A V2 answer's raw dict if it is a 2xx JSON object; else raise by status (and code)."""
    raw, status = answer.raw, answer.status
    if 200 <= status < 300:
        if not isinstance(answer.body, dict):
            raise Ambiguous(f"{what}: the answer was not a JSON object (HTTP {status})", raw=raw)
        return raw
    kind, message, code = v2_error_parts(raw)
    said = f"HTTP {status}" + (f" {kind}" if kind else "") + (f": {message}" if message else "")
    if code in CLI_DEFINITIVE_CODES or status in V2_DEFINITIVE:
        code = code if code is not None else V2_DEFINITIVE.get(status)
        if status == 429 and code not in REFUSAL_CODES:
            code = 1002
        label = REFUSAL_CODES.get(code or 0, "refused")
        raise Refused(
            _auth(f"{what}: refused ({said}; {label})", code, hint),
            code=code,
            raw=raw,
            retry_after=answer.retry_after if status == 429 else None,
        )
    raise Ambiguous(
        f"{what}: {said}",
        code=code,
        raw=raw,
        retry_after=answer.retry_after,
        reason=FailReason.SERVER_ERROR if status >= 500 else FailReason.BAD_ANSWER,
    )
