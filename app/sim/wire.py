"""What the demo provider's V1 handler (:mod:`app.sim.server`) and V2 endpoints
(:mod:`app.sim.v2api`) share: the refusal messages per MiniMax code, and the signal to drop a
connection without answering."""

from __future__ import annotations

AUTH_MESSAGE = (
    "login fail: Please carry the API secret key in the 'Authorization' field of the request header"
)
CODE_MESSAGES = {
    1000: "unknown error",
    1001: "request timeout",
    1002: "rate limit exceeded(RPM)",
    1004: AUTH_MESSAGE,
    1008: "insufficient balance",
    1024: "internal error",
    1026: "input new_sensitive",
    1027: "output new_sensitive",
    1028: "insufficient quota, your quota has been used up",
    1030: "insufficient quota, the usage limit of your plan has been reached",
    1033: "system error",
    1039: "token limit",
    2013: "invalid params",
    2049: "invalid api key",
    2056: "usage limit exceeded, wait for the next 5-hour window",
    2061: "the model is not supported by your current plan",
}


class _Drop(Exception):
    """Close the connection without answering."""
