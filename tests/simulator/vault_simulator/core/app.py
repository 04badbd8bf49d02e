"""The Flask application: faults, authentication, the edition/build gate,
dispatch to the registered handlers, the operation observers (audit) and the
spec's response shapes, in the simulator's dialect (``dialect``)."""

import time
import unicodedata
from urllib.parse import quote

from flask import Flask, Response, jsonify, request

# The core's one import of the areas, for its side effect: every module of every area
# registers its endpoints, admin endpoints, removal rules and observers.
import vault_simulator.areas  # noqa: F401 pylint: disable=unused-import
from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.authentication import allowed_from, ensure_admin, user_of_token
from vault_simulator.core.config import SimulatorConfig
from vault_simulator.core.context import RequestContext
from vault_simulator.core.dialect import HOST_NOT_ALLOWED, INVALID_TOKEN, LOCKED_USER, adapt, refusal, token_of
from vault_simulator.core.faults import (
    DROP_CONNECTION,
    FAILED_MESSAGE,
    HTML_PAGE,
    HTML_REASONS,
    MALFORMED_BODY,
    SERVED_KINDS,
    Faults,
)
from vault_simulator.core.inputs import read_input_data
from vault_simulator.core.randomness import Randomness
from vault_simulator.core.registry import OBSERVERS, Router
from vault_simulator.core.replies import FAILED, Failure, FileReply, Reply, Unsupported
from vault_simulator.core.request_log import RequestLog
from vault_simulator.core.simulator import Simulator, current_simulator
from vault_simulator.core.store import Store
from vault_simulator.core.styles import REST
from vault_simulator.core.tenancy import ensure_default_organization, selected_organization
from vault_simulator.core.traffic import Traffic

_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]


def create_app(config=None):
    """A simulator application for ``config`` (default: edition A, build 12450)."""
    config = config or SimulatorConfig()
    store = Store(config.state_path)
    rng = Randomness(config.seed)
    admin_token = ensure_admin(store, rng, config.admin_token)
    ensure_default_organization(store)
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False
    faults = Faults(config.faults, config.seed)
    Simulator(config, store, admin_token, Router(config), RequestLog(), rng, faults, Traffic()).attach(app)
    app.register_blueprint(admin_blueprint)
    app.add_url_rule("/", "vault", serve_vault, defaults={"path": ""}, methods=_METHODS)
    app.add_url_rule("/<path:path>", "vault", serve_vault, methods=_METHODS)
    return app


def serve_vault(path):
    """Answer one vault request: faults, authenticate, gate, dispatch, audit, shape."""
    simulator = current_simulator()
    match = simulator.router.match(request.environ)
    op = match[0].op if match else "UNSUPPORTED"
    fired = simulator.faults.draw(request.method, request.path)
    for rule in fired:
        if rule.kind == "latency":
            time.sleep(rule.seconds)
        elif rule.kind not in SERVED_KINDS:
            return _fault(rule, op, match[0].style if match else REST)
    response = _serve(simulator, match)
    if any(rule.kind == "drop_after" for rule in fired):
        # Served and committed: only the answer is lost.
        _drop_connection()
        return Response(status=500)
    return response


def _serve(simulator, match):
    """Authenticate, gate, dispatch, audit and shape one vault request."""
    user = user_of_token(simulator.store, token_of(simulator.config.dialect, request.headers, request.args))
    refused = _refusal_reason(user, request.remote_addr or "127.0.0.1")
    if refused is not None:
        answer = refusal(simulator.config.dialect, refused)
        op = answer.operation or (match[0].op if match else "AUTHENTICATION")
        return _answer(answer.http_status, REST, op, Reply(FAILED, answer.message))
    if match is None:
        return _unsupported(simulator.config, f"{request.method} {request.path}")
    endpoint, arguments = match
    try:
        reply = _run(simulator, endpoint, user, arguments)
    except Unsupported as unsupported:
        return _unsupported(simulator.config, f"{request.method} {request.path} with {unsupported}")
    if isinstance(reply, FileReply):
        simulator.request_log.add(request.method, request.path, endpoint.op, "Success")
        return Response(
            reply.content,
            status=200,
            mimetype=reply.mimetype,
            headers={"Content-Disposition": content_disposition(reply.filename)},
        )
    return _answer(200, endpoint.style, endpoint.op, reply)


def _refusal_reason(user, address):
    """Why the caller is refused (a reason of ``core.dialect``), or ``None``: an unknown token, a locked user,
    a token restricted to addresses (``allowed_hosts``) used from another."""
    if user is None:
        return INVALID_TOKEN
    if user.get("locked"):
        return LOCKED_USER
    if not allowed_from(user, address):
        return HOST_NOT_ALLOWED
    return None


def content_disposition(filename):
    """``attachment`` with the file's name as RFC 6266 gives it: ``filename`` as a quoted string
    (backslash and double quote escaped); for a name outside printable ASCII, ``filename`` holds an
    ASCII fallback and ``filename*`` the whole name in UTF-8 (RFC 8187), which clients prefer."""
    decomposed = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    fallback = "".join(char for char in decomposed if char.isprintable())
    quoted = fallback.replace("\\", "\\\\").replace('"', '\\"')
    value = f'attachment; filename="{quoted}"'
    if fallback != filename:
        value += f"; filename*=UTF-8''{quote(filename, safe='!#$&+.^_`|~-')}"
    return value


def _unsupported(config, what):
    message = f"{what} is not supported by this vault (edition {config.edition} build {config.build})"
    return _answer(404, REST, "UNSUPPORTED", Reply(FAILED, message))


def _run(simulator, endpoint, user, arguments):
    """The handler's Reply or FileReply; its work is undone when it fails, what the
    observers record (the audit trail) is kept. ``Unsupported`` propagates (nothing
    was done, nothing observed)."""
    context = None
    try:
        context = RequestContext(
            simulator.config,
            simulator.store,
            user,
            read_input_data(request),
            request.args,
            request.files,
            simulator.rng,
            selected_organization(simulator.store, request.headers.get("orgName")),
            dict(request.headers),
            request.remote_addr or "127.0.0.1",
        )
        with simulator.store.transaction():
            reply = endpoint.handler(context, **arguments)
    except Failure as failure:
        reply = Reply(FAILED, failure.message)
    if context is not None:
        status = reply.status if isinstance(reply, Reply) else "Success"
        with simulator.store.transaction():
            for observer in OBSERVERS:
                observer(context, endpoint.op, endpoint.path_of(request.path), arguments, status)
    return reply


def _fault(rule, op, style):
    log = current_simulator().request_log
    log.add(request.method, request.path, op, f"FAULT {rule.kind}")
    if rule.kind == "status":
        return Response(f"{rule.status} simulated fault", status=rule.status, mimetype="text/plain")
    if rule.kind == "malformed":
        return Response(MALFORMED_BODY, status=200, mimetype="application/json")
    if rule.kind == "empty":
        return Response(b"", status=200, mimetype="application/json")
    if rule.kind == "html":
        page = HTML_PAGE.format(status=rule.status, reason=HTML_REASONS[rule.status])
        return Response(page, status=rule.status, mimetype="text/html")
    if rule.kind == "failed":
        return jsonify(style.shape(op, Reply(FAILED, FAILED_MESSAGE))), 200
    if rule.kind == "redirect":
        headers = {"Location": rule.location} if rule.location else {}
        return Response(f"{rule.status} simulated redirect", status=rule.status, headers=headers, mimetype="text/plain")
    _drop_connection()
    return Response(status=500)


def _drop_connection():
    """Close the client's connection without an answer (``core.server`` gives the means; Flask's test
    client has none, and gets the 500)."""
    drop = request.environ.get(DROP_CONNECTION)
    if drop is not None:
        drop()


def _answer(http_status, style, op, reply):
    """The reply in the response shape of ``style``, as the simulator's dialect words it (``core.dialect``)."""
    simulator = current_simulator()
    simulator.request_log.add(request.method, request.path, op, reply.status)
    return jsonify(style.shape(op, adapt(simulator.config.dialect, op, reply))), http_status
