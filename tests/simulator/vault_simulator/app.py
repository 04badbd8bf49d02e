"""The Flask application: authentication, the edition/build gate, dispatch to
the registered handlers and the spec's response shapes."""
from flask import Flask, jsonify, request

# Imported for its side effect: each handler module registers its endpoints.
import vault_simulator.handlers  # noqa: F401 pylint: disable=unused-import
from vault_simulator.admin import admin_blueprint
from vault_simulator.config import SimulatorConfig
from vault_simulator.context import RequestContext
from vault_simulator.inputs import read_input_data
from vault_simulator.registry import Router
from vault_simulator.replies import FAILED, Failure, Reply
from vault_simulator.request_log import RequestLog
from vault_simulator.simulator import Simulator, current_simulator
from vault_simulator.store import Store
from vault_simulator.styles import REST
from vault_simulator.tokens import user_of_token
from vault_simulator.user_records import ensure_admin

AUTHENTICATION_FAILED = "Authentication failed: the AUTHTOKEN is missing or invalid"
_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]


def create_app(config=None):
    """A simulator application for ``config`` (default: edition A, build 12450)."""
    config = config or SimulatorConfig()
    store = Store(config.state_path)
    admin_token = ensure_admin(store, config.admin_token)
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False
    Simulator(config, store, admin_token, Router(config), RequestLog()).attach(app)
    app.register_blueprint(admin_blueprint)
    app.add_url_rule("/", "vault", serve_vault, defaults={"path": ""}, methods=_METHODS)
    app.add_url_rule("/<path:path>", "vault", serve_vault, methods=_METHODS)
    return app


def serve_vault(path):
    """Answer one vault request: authenticate, gate, dispatch, shape."""
    simulator = current_simulator()
    match = simulator.router.match(request.environ)
    user = user_of_token(simulator.store, request.headers.get("AUTHTOKEN"))
    if user is None:
        op = match[0].op if match else "AUTHENTICATION"
        return _answer(401, REST, op, Reply(FAILED, AUTHENTICATION_FAILED))
    if match is None:
        config = simulator.config
        message = (f"{request.method} {request.path} is not supported by this vault "
                   f"(edition {config.edition} build {config.build})")
        return _answer(404, REST, "UNSUPPORTED", Reply(FAILED, message))
    endpoint, arguments = match
    return _answer(200, endpoint.style, endpoint.op, _run(simulator, endpoint, user, arguments))


def _run(simulator, endpoint, user, arguments):
    try:
        context = RequestContext(simulator.config, simulator.store, user, read_input_data(request),
                                 request.args, request.files)
        with simulator.store.transaction():
            return endpoint.handler(context, **arguments)
    except Failure as failure:
        return Reply(FAILED, failure.message)


def _answer(http_status, style, op, reply):
    current_simulator().request_log.add(request.method, request.path, op, reply.status)
    return jsonify(style.shape(op, reply)), http_status
