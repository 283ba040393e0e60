"""What the web tests share: Telegram's side of a Mini App (it signs initData as Telegram
documents it), so tests can open the page as Telegram would."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode


def sign_init_data(
    token: str,
    *,
    user_id: int,
    first_name: str,
    auth_date: float,
    language: str = "es",
    start_param: str | None = None,
) -> str:
    """initData as Telegram builds it for a Mini App opened by this user (the
    data-check-string of the sorted fields, HMAC-SHA-256 with the key derived from the
    bot token; core.telegram.org/bots/webapps, "Validating data")."""
    user = {"id": user_id, "first_name": first_name, "language_code": language}
    fields = {
        "auth_date": str(int(auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
