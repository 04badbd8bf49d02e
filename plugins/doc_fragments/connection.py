# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Mirrors plugins/module_utils/_options.py:connection_argument_spec() exactly.
    DOCUMENTATION = r"""
options:
  url:
    description:
      - Base URL of the vault, V(https://<host>:<port>). The client derives C({base_url}/restapi/json/v1)
        and C({base_url}/api/pki/restapi) from it.
      - A URL with user information (V(https://user:password@host)), a path, a query or a fragment is refused.
      - The client never follows a redirect, so that the token and the request go to this origin only; an
        answer HTTP 3xx fails, naming the scheme and host it points to.
      - If not set, the environment variable E(CREDVAULT_URL) is used. In this and every other option, an
        environment variable set to the empty string counts as not set.
    type: str
    required: true
  auth_token:
    description:
      - The API token, sent in the C(AUTHTOKEN) header of every request.
      - Surrounding whitespace (such as the line break at the end of a file) is removed; a token that still holds
        a control character or a character outside ASCII is refused before any request, without showing it.
      - If not set, the environment variable E(CREDVAULT_AUTH_TOKEN) is used.
      - This or O(auth_token_file) is required. Set both, the one set as an option wins over the one from the
        environment; both set as options (or both in the environment) is an error.
    type: str
  auth_token_file:
    description:
      - A file holding the API token, instead of O(auth_token), so that the token is in no option value, variable
        or environment variable of the run. Surrounding whitespace is removed.
      - It is read where the client runs (the controller for lookups, inventories, event sources and the modules
        run on V(localhost), as the vault's modules usually are), each time a task, lookup or inventory connects,
        and never kept elsewhere.
      - It must be a regular file (a symbolic link to one is followed) that no one but its owner can read or
        write, mode 0600 or 0400, as the file injector of AWX and Automation Platform writes it (see
        R(the AWX and Automation Platform guide,ansible_collections.credvault.vault.docsite.guide_awx_aap)); another
        one is refused, naming the file, before any request.
      - If not set, the environment variable E(CREDVAULT_AUTH_TOKEN_FILE) is used.
    type: path
  org_name:
    description:
      - Display name of the organization in which calls act, sent in the C(orgName) header. Without it the vault
        acts in its default organization; a name it does not know fails the call.
      - The names are the C(display_name) values that M(credvault.vault.vault_organization_info) lists
        (C(GET_ORGANIZATIONS), edition B from build 6320).
      - Surrounding whitespace is removed; a name that still holds a control character or a character outside
        Latin-1 (ISO-8859-1) cannot be sent in a header and is refused before any request.
      - If not set, the environment variable E(CREDVAULT_ORG_NAME) is used.
    type: str
  edition:
    description:
      - Edition of the vault, V(A) or V(B).
      - With both O(edition) and O(build) set, a call the vault does not have (an endpoint, or an input field such
        as the TOTP fields) is refused before anything is sent, naming the build it needs. Without them, the
        vault's own answer decides.
      - The one call whose method differs by edition (C(GetSSHKey), GET in edition A, POST in edition B) is sent
        with edition A's method when O(edition) is not set, and again with edition B's when the vault does not
        serve it (HTTP 404 or 405); the edition that answered is kept for the rest of the task. A task that fails
        because the vault did not serve a call, with O(edition) not set, says to set it.
      - If not set, the environment variable E(CREDVAULT_EDITION) is used.
    type: str
    choices: [A, B]
  build:
    description:
      - Build number of the vault. See O(edition).
      - If not set, the environment variable E(CREDVAULT_BUILD) is used.
    type: int
  validate_certs:
    description:
      - Whether to verify the vault's TLS certificate. Leave it on in production and use O(ca_path) for a private CA.
      - V(false) gives a warning once per task; urllib3's own warning is silenced for this task's requests only.
      - If not set, the environment variable E(CREDVAULT_VALIDATE_CERTS) is used.
    type: bool
    default: true
  ca_path:
    description:
      - A PEM file with the CA certificate(s) that signed the vault's certificate. It must exist and be readable.
      - If not set, the environment variable E(CREDVAULT_CA_PATH) is used.
    type: path
  client_cert:
    description:
      - A PEM file with the TLS client certificate to show the vault, for a vault (or a gateway in front of it) that
        demands one; with its private key in the same file, or in O(client_key).
      - Checked before any request - the files must exist and be readable, the key must match the certificate and
        must not be encrypted (a passphrase cannot be given).
      - A vault that refuses the certificate, or demands one when none is set, fails the task with a message that
        says so, with the TLS alert the vault sent (C(certificate required), C(unknown ca), ...).
      - If not set, the environment variable E(CREDVAULT_CLIENT_CERT) is used.
    type: path
    version_added: 0.6.0
  client_key:
    description:
      - A PEM file with the unencrypted private key of O(client_cert), when that file does not hold it. Keep it
        readable by its owner only.
      - If not set, the environment variable E(CREDVAULT_CLIENT_KEY) is used.
    type: path
    version_added: 0.6.0
  proxy_url:
    description:
      - The HTTP proxy to reach the vault through, V(http://HOST:PORT) or V(https://HOST:PORT), with
        V(USER:PASSWORD@) before the host if the proxy asks for them (the password is masked in the task's output).
        Requests go through it with C(CONNECT), so TLS still runs between the client and the vault.
      - Without it, the standard variables of the environment where the client runs apply, as the Python library
        requests reads them - C(HTTPS_PROXY) (or C(https_proxy)), C(ALL_PROXY), and C(NO_PROXY) for the hosts to
        reach directly. O(proxy_url) wins over them, C(NO_PROXY) included.
      - A proxy that cannot be reached or refuses the connection (HTTP 407 for missing or wrong credentials, 403)
        fails the task with a message that names the proxy (without its user information), not the vault.
      - If not set, the environment variable E(CREDVAULT_PROXY_URL) is used.
    type: str
    version_added: 0.6.0
  timeout:
    description:
      - Seconds the vault has to answer one request completely, headers and body (a downloaded file included);
        more than V(0), fractions allowed. An answer not complete by then fails (a read is retried).
      - Whatever O(timeout), an answer is read up to 32 MiB, a downloaded file up to 256 MiB; a larger one fails.
      - If not set, the environment variable E(CREDVAULT_TIMEOUT) is used.
    type: float
    default: 30
  retries:
    description:
      - How many times to retry a read after a connection error, an HTTP 429, 502, 503 or 504, or a success
        answer that cannot be read (cut off, not JSON, without a result status), with capped, jittered exponential
        backoff. V(0) or more.
      - A write is retried only when it was never sent or was answered 429. A write that timed out, lost its
        connection after sending or got an answer that cannot be read may have been applied; the task fails
        saying so, and reports C(changed).
      - If not set, the environment variable E(CREDVAULT_RETRIES) is used.
    type: int
    default: 3
requirements:
  - requests
"""

    # Sources that plugins (the lookups) read in addition; modules use the environment fallback only.
    PLUGINS = r"""
options:
  url:
    env:
      - name: CREDVAULT_URL
    ini:
      - section: credvault_vault
        key: url
    vars:
      - name: credvault_url
  auth_token:
    env:
      - name: CREDVAULT_AUTH_TOKEN
    vars:
      - name: credvault_auth_token
  auth_token_file:
    env:
      - name: CREDVAULT_AUTH_TOKEN_FILE
    ini:
      - section: credvault_vault
        key: auth_token_file
    vars:
      - name: credvault_auth_token_file
  org_name:
    env:
      - name: CREDVAULT_ORG_NAME
    ini:
      - section: credvault_vault
        key: org_name
    vars:
      - name: credvault_org_name
  edition:
    env:
      - name: CREDVAULT_EDITION
    ini:
      - section: credvault_vault
        key: edition
    vars:
      - name: credvault_edition
  build:
    env:
      - name: CREDVAULT_BUILD
    ini:
      - section: credvault_vault
        key: build
    vars:
      - name: credvault_build
  validate_certs:
    env:
      - name: CREDVAULT_VALIDATE_CERTS
    ini:
      - section: credvault_vault
        key: validate_certs
    vars:
      - name: credvault_validate_certs
  ca_path:
    env:
      - name: CREDVAULT_CA_PATH
    ini:
      - section: credvault_vault
        key: ca_path
    vars:
      - name: credvault_ca_path
  client_cert:
    env:
      - name: CREDVAULT_CLIENT_CERT
    ini:
      - section: credvault_vault
        key: client_cert
    vars:
      - name: credvault_client_cert
  client_key:
    env:
      - name: CREDVAULT_CLIENT_KEY
    ini:
      - section: credvault_vault
        key: client_key
    vars:
      - name: credvault_client_key
  proxy_url:
    env:
      - name: CREDVAULT_PROXY_URL
    ini:
      - section: credvault_vault
        key: proxy_url
    vars:
      - name: credvault_proxy_url
  timeout:
    env:
      - name: CREDVAULT_TIMEOUT
    ini:
      - section: credvault_vault
        key: timeout
    vars:
      - name: credvault_timeout
  retries:
    env:
      - name: CREDVAULT_RETRIES
    ini:
      - section: credvault_vault
        key: retries
    vars:
      - name: credvault_retries
"""
