"""Who may use a Ludis notebook server: whoever the Ludis app proxy vouches for.

The proxy signs every request it forwards with this start's token (`Authorization: token ...`,
the JUPYTER_TOKEN variable); nobody else in the cluster reaches the pod. Jupyter's own token
login would mark such requests "token-authenticated", and Jupyter then skips its origin checks
for them (meant for scripts). This provider accepts the same token without that mark, so
JupyterLab keeps checking that every API request and websocket comes from its own page (Origin
against Host, which the proxy passes on as the browser sent it). It holds no token of its own,
so JupyterLab's page does not hand the token to the browser: the proxy adds it."""

import hmac
import os

from jupyter_server.auth.identity import IdentityProvider, User
from traitlets import default


class ProxyIdentityProvider(IdentityProvider):
    @default("token")
    def _token_default(self):
        return ""

    def get_user(self, handler):
        expected = os.environ.get("JUPYTER_TOKEN", "")
        scheme, _, sent = handler.request.headers.get("Authorization", "").partition(" ")
        if expected and scheme.lower() == "token" and hmac.compare_digest(sent.strip().encode(), expected.encode()):
            return User(username="ludis", name="Ludis")
        return None
