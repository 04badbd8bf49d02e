# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The vault's endpoints, one row per endpoint row of the specification.

Every HTTP call the collection makes goes through a row of ``CATALOGUE``: the
client takes method, path, operation name and the edition/build gate from here,
so no module or plugin hard-codes a path.

``build`` is written exactly as the spec's Build column: ``A n / B m`` (from
build n in edition A, m in edition B), ``A n`` or ``B m`` alone (that edition
only), ``-`` (no minimum stated).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field, replace

REST = "rest"  # {rest_root} = {base_url}/restapi/json/v1
PKI = "pki"  # {pki_root} = {base_url}/api/pki/restapi

EDITIONS = ("A", "B")

_BUILD_PART = re.compile(r"^(A|B) (\d+)$")


def parse_build(text):
    """Turn a Build cell (``A 11300 / B 5300``, ``B 6320``, ``-``) into {edition: minimum build}.

    An edition missing from the result does not have the endpoint at all.
    """
    if text.strip() == "-":
        return {edition: 0 for edition in EDITIONS}
    gates = {}
    for part in text.split("/"):
        match = _BUILD_PART.match(part.strip())
        if not match:
            raise ValueError("not a Build cell: %r" % text)
        gates[match.group(1)] = int(match.group(2))
    return gates


@dataclass(frozen=True)
class Endpoint:
    """One endpoint row.

    ``details_key`` is ``Details`` except for the few operations the spec
    lists with a lower-case ``details``. ``file_part`` names the multipart part
    for uploads (``file`` for resources, ``File`` for certificates and SSH keys).
    ``returns_file`` marks endpoints whose success body is the file itself.
    ``read`` marks calls that change nothing and so may be retried; ``writes_with_input`` marks a read row
    whose call writes when it carries input (the agent key: "With no input the agent-key call returns an
    available key; input is given only to generate a new one"), which ``for_input`` applies.
    ``fields`` gates single input keys by build (the account booleans, TOTP, ...).

    The spec names no operation for the rows whose output is a file (download
    file, export SSH key, PGP key, get certificate, key store); ``operation``
    there is only the label used in error messages.
    """

    key: str
    method: str
    root: str
    path: str
    operation: str
    build: str = "-"
    details_key: str = "Details"
    query: tuple = ()
    file_part: str | None = None
    returns_file: bool = False
    read: bool | None = None
    fields: dict = field(default_factory=dict)
    method_in_b: str | None = None
    operation_in_b: str | None = None
    writes_with_input: bool = False

    @property
    def gates(self):
        return parse_build(self.build)

    @property
    def is_read(self):
        return self.method == "GET" if self.read is None else self.read

    def for_input(self, details):
        """This row as a call with ``details``: a ``writes_with_input`` row given input is a write."""
        if self.writes_with_input and details:
            return replace(self, read=False)
        return self

    def method_for(self, edition):
        if edition == "B" and self.method_in_b:
            return self.method_in_b
        return self.method

    def operation_for(self, edition):
        """The operation name the edition answers with (createCSR: ``CreateCSR``, in edition B ``CreateCertificate``)."""
        if edition == "B" and self.operation_in_b:
            return self.operation_in_b
        return self.operation

    def field_gates(self):
        return {name: parse_build(build) for name, build in self.fields.items()}

    @property
    def placeholders(self):
        """The names of the path's ``{placeholders}``."""
        return frozenset(name for dummy, name, dummy_spec, dummy_conv in string.Formatter().parse(self.path) if name)

    def call_problem(self, path, query):
        """What is wrong with a call that fills the placeholders ``path`` and sends the query parameters ``query``:
        other placeholders than the path's, or a parameter the row does not name; None when nothing is."""
        given = frozenset(path or ())
        if given != self.placeholders:
            return "the call fills the path placeholders %s, the path %s has %s" % (
                _listed(given),
                self.path,
                _listed(self.placeholders),
            )
        unknown = sorted(frozenset(query or ()) - frozenset(self.query))
        if unknown:
            return "query parameter %s is not one of the row's (%s)" % (
                ", ".join(unknown),
                ", ".join(self.query) or "none",
            )
        return None


# The account input's booleans ("boolean (JSON true/false)", A 12230 / B 6000).
ACCOUNT_BOOLEANS = (
    "RECORD_RDP_SESSIONS",
    "RECORD_CLI_SESSIONS",
    "DISABLE_PASSWORD_RESETS",
    "CONFIGURE_PASSWORD_RESET",
    "IIS_WEB_CONFIG_RESET",
    "IIS_APP_POOL_RESTART",
    "IIS_APP_POOL_RESET",
    "SERVICES_RESTART",
    "SERVICES_RESET",
    "SCHEDULED_TASK_RESET",
)
_ACCOUNT_FLAGS = ACCOUNT_BOOLEANS + ("ACCOUNT_RESOURCE_GROUP_IDS",)
_TOTP_FIELDS = ("TOTP_SECRET", "TOTP_ALGORITHM", "TOTP_DIGITS", "TOTP_VALIDITY")

ACCOUNT_INPUT_GATES = dict(
    [(name, "A 12230 / B 6000") for name in _ACCOUNT_FLAGS] + [(name, "A 12430") for name in _TOTP_FIELDS]
)

_CERT_SHARE = "A 11300 / B 5300"

_ROWS = (
    # Resources and accounts ({rest_root})
    Endpoint("get_resources", "GET", REST, "/resources", "GET RESOURCES"),
    Endpoint("get_account_list", "GET", REST, "/resources/{resource_id}/accounts", "GET RESOURCE ACCOUNTLIST"),
    Endpoint(
        "get_account_details",
        "GET",
        REST,
        "/resources/{resource_id}/accounts/{account_id}",
        "GET RESOURCE ACCOUNT DETAILS",
    ),
    Endpoint("get_password", "GET", REST, "/resources/{resource_id}/accounts/{account_id}/password", "GET PASSWORD"),
    Endpoint(
        "change_password", "PUT", REST, "/resources/{resource_id}/accounts/{account_id}/password", "CHANGE PASSWORD"
    ),
    Endpoint("create_resource", "POST", REST, "/resources", "CREATE RESOURCE", file_part="file"),
    Endpoint(
        "get_resource_account_ids",
        "GET",
        REST,
        "/resources/getResourceIdAccountId",
        "GET_RESOURCEACCOUNTID",
        query=("RESOURCENAME", "ACCOUNTNAME"),
    ),
    Endpoint("get_resource_id", "GET", REST, "/resources/resourcename/{resource_name}", "GET_RESOURCEID"),
    Endpoint("delete_resource", "DELETE", REST, "/resources/{resource_id}", "DELETE RESOURCE"),
    Endpoint("edit_resource", "PUT", REST, "/resources/{resource_id}", "EDIT RESOURCE"),
    Endpoint("delete_account", "DELETE", REST, "/resources/{resource_id}/accounts/{account_id}", "DELETE ACCOUNT"),
    Endpoint(
        "download_file",
        "GET",
        REST,
        "/resources/{resource_id}/accounts/{account_id}/downloadfile",
        "DOWNLOAD FILE",
        returns_file=True,
    ),
    Endpoint(
        "add_accounts", "POST", REST, "/resources/{resource_id}/accounts", "ADD ACCOUNTS", fields=ACCOUNT_INPUT_GATES
    ),
    Endpoint(
        "edit_account",
        "PUT",
        REST,
        "/resources/{resource_id}/accounts/{account_id}",
        "EDIT ACCOUNT",
        fields=ACCOUNT_INPUT_GATES,
    ),
    Endpoint("get_resource_types", "GET", REST, "/resources/resourcetypes", "GET RESOURCE TYPES", "A 11300 / B 5300"),
    Endpoint(
        "configure_remote_password_reset",
        "POST",
        REST,
        "/resources/configureremotepasswordreset",
        "CONFIGURE REMOTE PASSWORD RESET",
        "A 11200 / B 5100",
    ),
    Endpoint(
        "get_associated_groups",
        "GET",
        REST,
        "/resources/{resource_id}/associatedGroups",
        "GET ASSOCIATED GROUPS",
        "A 12000 / B 5400",
    ),
    Endpoint(
        "get_associated_remote_apps",
        "GET",
        REST,
        "/resources/{resource_id}/associated-remote-apps",
        "GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE",
        "B 6320",
    ),
    Endpoint("get_totp", "GET", REST, "/accounts/{account_id}/totp", "FETCH_CURRENT_TOTP", "A 12430"),
    # Password workflow and policies ({rest_root})
    Endpoint("request_password", "POST", REST, "/accounts/{account_id}/requestpassword", "REQUEST_PASSWORD"),
    Endpoint("get_password_requests", "GET", REST, "/accounts/passwordaccessrequests", "GET_PASSWORDREQUEST"),
    Endpoint(
        "reject_request", "POST", REST, "/accounts/{account_id}/requester/{requester_id}/reject", "ADMIN_REQUEST_REJECT"
    ),
    Endpoint(
        "approve_request",
        "POST",
        REST,
        "/accounts/{account_id}/requester/{requester_id}/approve",
        "ADMIN_REQUEST_APPROVE",
    ),
    Endpoint(
        "checkin_password",
        "POST",
        REST,
        "/accounts/{account_id}/requester/{requester_id}/checkin",
        "ADMIN_REQUEST_CHECKIN",
    ),
    Endpoint("checkout_password", "POST", REST, "/accounts/{account_id}/checkout", "REQUEST_CHECKOUT"),
    Endpoint("generate_password", "GET", REST, "/passwords/generate", "GENERATE PASSWORD"),
    Endpoint("get_password_policies", "GET", REST, "/passwords/policies", "GET PASSWORD POLICIES", "A 11300 / B 5300"),
    Endpoint(
        "validate_password",
        "POST",
        REST,
        "/passwords/validate",
        "VALIDATE_PASSWORD",
        "A 12230 / B 6000",
        details_key="details",
        read=True,
    ),
    # Users and user groups ({rest_root})
    Endpoint("create_user", "POST", REST, "/user", "CREATE_USER"),
    Endpoint("create_api_user", "POST", REST, "/user", "CREATE_USER"),
    Endpoint("delete_user", "DELETE", REST, "/user/{user_id}", "DELETE USER"),
    Endpoint("delete_user_by_name", "DELETE", REST, "/user", "DELETE USER", query=("USERNAME",)),
    Endpoint("get_user_id", "GET", REST, "/user/getUserId", "get_USERID", query=("USERNAME",)),
    Endpoint(
        "add_user_to_group",
        "POST",
        REST,
        "/user/addUserToUserGroup",
        "ADD USER TO USERGROUP",
        query=("USERNAME", "USERGROUPNAME"),
    ),
    Endpoint("lock_user", "PUT", REST, "/user/lock", "LOCK USER", query=("USERNAME",)),
    Endpoint("unlock_user", "PUT", REST, "/user/unlock", "UNLOCK USER", query=("USERNAME",)),
    Endpoint("reset_mfa", "PUT", REST, "/user/resetMFA", "Reset MFA", "A 12100 / B 5400", query=("USERNAME",)),
    Endpoint(
        "get_user_group_id",
        "GET",
        REST,
        "/user/getUserGroupId",
        "GET_USERGROUPID",
        "A 11200 / B 5100",
        query=("USERGROUPNAME",),
    ),
    Endpoint(
        "remove_user_from_group",
        "POST",
        REST,
        "/user/removeUserFromUserGroup",
        "REMOVE USER FROM USER_GROUP",
        "A 12230 / B 6000",
    ),
    Endpoint(
        "delete_user_groups",
        "DELETE",
        REST,
        "/userGroup",
        "DELETE_USERGROUP",
        "A 12230 / B 6000",
        details_key="details",
    ),
    Endpoint("get_users", "GET", REST, "/user", "GET_USER(S)", "B 6320", details_key="details"),
    Endpoint("get_user_groups", "GET", REST, "/userGroup", "GET_USERGROUP(S)", "B 6320", details_key="details"),
    Endpoint("get_organizations", "GET", REST, "/organizations", "GET_ORGANIZATIONS", "B 6320"),
    # Resource groups ({rest_root})
    Endpoint("create_resource_group", "POST", REST, "/resourcegroup", "CREATE RESOURCE GROUP"),
    Endpoint("get_resource_groups", "GET", REST, "/resourcegroup", "GET_RESOURCE_GROUPS", "A 12230 / B 6000"),
    Endpoint(
        "associate_resources",
        "POST",
        REST,
        "/resourcegroup/{group_id}/associateResources",
        "ASSOCIATE RESOURCES",
        "A 12000 / B 5400",
    ),
    Endpoint(
        "disassociate_resources",
        "POST",
        REST,
        "/resourcegroup/{group_id}/disassociateResources",
        "DISASSOCIATE RESOURCES",
        "A 12000 / B 5400",
    ),
    Endpoint(
        "delete_resource_group",
        "DELETE",
        REST,
        "/resourcegroup",
        "DELETE RESOURCE GROUP",
        "A 12000 / B 5400",
        query=("RESOURCEGROUPID",),
    ),
    Endpoint(
        "get_resource_group_id",
        "GET",
        REST,
        "/resourcegroup/getResourceGroupId",
        "GET RESOURCE GROUP ID",
        "A 12000 / B 5400",
        query=("RESOURCEGROUPNAME", "USERID"),
    ),
    # Sharing ({rest_root}); all sharing calls are PUT
    Endpoint("share_resource_with_user", "PUT", REST, "/resources/{resource_id}/share", "SHARE RESOURCE"),
    Endpoint(
        "share_account_with_user", "PUT", REST, "/resources/{resource_id}/accounts/{account_id}/share", "SHARE ACCOUNT"
    ),
    Endpoint(
        "share_resource_with_group", "PUT", REST, "/resources/{resource_id}/share", "SHARE RESOURCE", "A 11200 / B 5100"
    ),
    Endpoint(
        "share_account_with_group",
        "PUT",
        REST,
        "/resources/{resource_id}/accounts/{account_id}/share",
        "SHARE ACCOUNT",
        "A 11200 / B 5100",
    ),
    Endpoint(
        "share_resource_groups", "PUT", REST, "/resourcegroup/share", "SHARE_RESOURCEGROUP(S)", "A 12450 / B 6320"
    ),
    Endpoint("share_resources", "PUT", REST, "/resources/share", "SHARE_RESOURCE(S)", "B 6320"),
    Endpoint("share_accounts", "PUT", REST, "/accounts/share", "SHARE_ACCOUNTS(S)", "B 6320"),
    # Audit, agents and the service ({rest_root})
    Endpoint("get_audit", "GET", REST, "/audit", "GET_AUDIT", query=("AUDITTYPE", "STARTINDEX", "LIMIT", "DURATION")),
    Endpoint(
        "get_agent_key",
        "POST",
        REST,
        "/agents/agentkey",
        "Fetch Agent Key",
        "A 12230 / B 6000",
        details_key="details",
        read=True,
        writes_with_input=True,
    ),
    Endpoint("get_ha_status", "GET", REST, "/server/getHighAvailabilityStatus", "Get HA Status", "A 12230 / B 6000"),
    # SSH and PGP keys ({pki_root})
    Endpoint("create_ssh_key", "POST", PKI, "/createsshkey", "CreateSSHKey"),
    Endpoint("delete_ssh_key", "DELETE", PKI, "/deleteSSHKey", "DeleteSSHKey"),
    Endpoint("get_all_ssh_keys", "GET", PKI, "/getAllSSHKeys", "GetAllSSHKeys"),
    Endpoint("get_ssh_key", "GET", PKI, "/getSSHKey", "GetSSHKey", method_in_b="POST", read=True),
    Endpoint(
        "export_ssh_key",
        "POST",
        PKI,
        "/exportSSHKey",
        "ExportSSHKey",
        returns_file=True,
        read=True,
        fields={"keyExportType": "B 6200"},
    ),
    Endpoint("get_ssh_keys_for_user", "GET", PKI, "/getSSHkeysforuser", "GetSSHKeysForUser"),
    Endpoint("get_all_associated_users", "GET", PKI, "/getAllAssociatedUsers", "GetAllAssociatedUsers"),
    Endpoint("import_ssh_key", "POST", PKI, "/addSSHKey", "addSSHKey", file_part="File"),
    Endpoint("associate_ssh_key", "POST", PKI, "/associateKey", "associateKey"),
    Endpoint("dissociate_ssh_key", "POST", PKI, "/dissociateKey", "dissociateKey"),
    Endpoint("get_pgp_key", "GET", PKI, "/getPGPKey", "GetPGPKey", "B 6200", returns_file=True),
    # SSL certificates, CSRs and groups ({pki_root})
    Endpoint(
        "get_certificate",
        "GET",
        PKI,
        "/getCertificate",
        "GetCertificate",
        returns_file=True,
        fields={"fileType": "B 6200"},
    ),
    Endpoint("get_all_ssl_certificates", "GET", PKI, "/getAllSSLCertificates", "GetAllSSLCertificates"),
    Endpoint(
        "get_all_ssl_certificates_expiry", "GET", PKI, "/getAllSSLCertsExpiryDate", "GetAllSSLCertificatesExpiryDate"
    ),
    Endpoint("get_certificate_details", "GET", PKI, "/getCertificateDetails", "GetCertificateDetails"),
    Endpoint(
        "get_certificate_keystore", "GET", PKI, "/getCertificateKeyStore", "GetCertificateKeyStore", returns_file=True
    ),
    Endpoint("get_certificate_passphrase", "GET", PKI, "/getCertificatePassphrase", "GetCertificatePassphrase"),
    Endpoint("add_certificate", "POST", PKI, "/addCertificate", "AddCertificate", file_part="File"),
    Endpoint("delete_certificate", "DELETE", PKI, "/deleteCertificate", "DeleteCertificate"),
    Endpoint("discover_ssl_single", "POST", PKI, "/sslCertSingleDiscovery", "Get SSL Discovery"),
    Endpoint("discover_ssl_range", "POST", PKI, "/sslCertRangeDiscovery", "Get SSL Discovery"),
    Endpoint("create_csr", "POST", PKI, "/createCSR", "CreateCSR", operation_in_b="CreateCertificate"),
    Endpoint("get_csr_list", "GET", PKI, "/getCSRList", "GetCSRList"),
    Endpoint("sign_csr", "POST", PKI, "/signCSR", "SignCSR"),
    Endpoint("create_certificate", "POST", PKI, "/createCertificate", "CreateCertificate"),
    Endpoint("deploy_certificate", "POST", PKI, "/deployCertificate", "DeployCertificate", "A 11300 / B 5300"),
    Endpoint("share_certificate_with_user", "POST", PKI, "/shareCertificateToUser", "ShareCertificate", _CERT_SHARE),
    Endpoint(
        "share_certificate_with_group", "POST", PKI, "/shareCertificateToUserGroup", "ShareCertificate", _CERT_SHARE
    ),
    Endpoint(
        "share_certificate_group_with_user",
        "POST",
        PKI,
        "/shareCertificateGroupToUser",
        "ShareCertificate",
        _CERT_SHARE,
    ),
    Endpoint(
        "share_certificate_group_with_group",
        "POST",
        PKI,
        "/shareCertificateGroupToUserGroup",
        "ShareCertificate",
        _CERT_SHARE,
    ),
    Endpoint(
        "revoke_certificate_from_user", "POST", PKI, "/revokeCertificateFromUser", "RevokeCertificate", _CERT_SHARE
    ),
    Endpoint(
        "revoke_certificate_from_group",
        "POST",
        PKI,
        "/revokeCertificateFromUserGroup",
        "RevokeCertificate",
        _CERT_SHARE,
    ),
    Endpoint(
        "revoke_certificate_group_from_user",
        "POST",
        PKI,
        "/revokeCertificateGroupFromUser",
        "RevokeCertificate",
        _CERT_SHARE,
    ),
    Endpoint(
        "revoke_certificate_group_from_group",
        "POST",
        PKI,
        "/revokeCertificateGroupFromUserGroup",
        "RevokeCertificate",
        _CERT_SHARE,
    ),
    Endpoint("create_certificate_group", "POST", PKI, "/createCertificateGroup", "createCertificateGroup", _CERT_SHARE),
    Endpoint("edit_certificate_group", "POST", PKI, "/editCertificateGroup", "editCertificateGroup", _CERT_SHARE),
    Endpoint(
        "delete_certificate_group", "DELETE", PKI, "/deleteCertificateGroup", "deleteCertificateGroup", _CERT_SHARE
    ),
    # Answered as ``GetAgentInstallKey``: it reads the vault's install key, so it may be retried.
    Endpoint(
        "generate_install_key", "POST", PKI, "/generateInstallKey", "GetAgentInstallKey", "A 11300 / B 5300", read=True
    ),
)

CATALOGUE = {row.key: row for row in _ROWS}


def _listed(names):
    return "{%s}" % ", ".join(sorted(names)) if names else "none"
