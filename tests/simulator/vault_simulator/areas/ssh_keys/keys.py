"""SSH keys under the PKI root: create, import, list, get, export and delete.

Key names, types, lengths, fingerprints and file formats: see ``records``
and ``key_material``. Associations with users: ``associations``.
"""

from vault_simulator.areas.ssh_keys.key_material import (
    SSHKeyError,
    generate_key,
    key_length,
    load_private_key_file,
    private_key_file,
)
from vault_simulator.areas.ssh_keys.records import (
    UPPER_CASE_SUCCESS,
    associations_of_key,
    existing_key,
    require_key_manager,
    require_new_key_name,
    save_key,
    ssh_key_list_item,
)
from vault_simulator.core.inputs import flag, required_text, text
from vault_simulator.core.records import SSH_KEY, SSH_KEY_ASSOCIATION
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, FileReply, Reply, Unsupported, success
from vault_simulator.core.styles import PKI

# "keyExportType: B 6200" (export SSH key).
EXPORT_TYPE_BUILDS = {"B": 6200}
PUBLIC, PRIVATE = "public", "private"


@endpoint("POST", "/createsshkey", op="CreateSSHKey", builds=ANY_BUILD, style=PKI)
def create_ssh_key(ctx):
    """Details: keyName, passPhrase (encrypts the private key), comment (ends the public key line),
    length, keyType. keyName and keyType are required; length too, except for ed25519."""
    require_key_manager(ctx.user, "create SSH keys")
    details = ctx.details
    name = require_new_key_name(ctx.store, required_text(details, "keyName"))
    key_type = required_text(details, "keyType")
    passphrase, comment = text(details, "passPhrase"), text(details, "comment").strip()
    if "\n" in comment or "\r" in comment:
        raise Failure("comment must be a single line: it ends the public key line")
    try:
        bits = key_length(key_type, text(details, "length").strip())
    except SSHKeyError as error:
        raise Failure(str(error)) from None
    private_key = generate_key(ctx.rng, key_type, bits, ctx.config.seed is not None)
    save_key(ctx, name, private_key, private_key_file(ctx.rng, private_key, passphrase, comment), passphrase, comment)
    return success(f"SSH key {name} created successfully")


@endpoint("POST", "/addSSHKey", op="addSSHKey", builds=ANY_BUILD, style=PKI)
def import_ssh_key(ctx):
    """multipart: INPUT_DATA Details {keyName, passphrase} and the part ``File``, an OpenSSH or PEM
    private key file. The passphrase decrypts it; the file is kept as it came (still encrypted), and
    ``isPassphraseAvailable`` says whether it is encrypted. The imported key has no comment."""
    require_key_manager(ctx.user, "import SSH keys")
    name = require_new_key_name(ctx.store, required_text(ctx.details, "keyName"))
    upload = ctx.files.get("File")
    if upload is None:
        raise Failure("File is required: the private key file to import")
    content, passphrase = upload.read(), text(ctx.details, "passphrase")
    try:
        private_key, encrypted = load_private_key_file(content, passphrase)
    except SSHKeyError as error:
        raise Failure(f"SSH key {name} cannot be imported: {error}") from None
    save_key(ctx, name, private_key, content.decode("ascii"), passphrase if encrypted else "")
    return Reply(UPPER_CASE_SUCCESS, f"SSH key {name} imported successfully")


@endpoint("GET", "/getAllSSHKeys", op="GetAllSSHKeys", builds=ANY_BUILD, style=PKI)
def list_ssh_keys(ctx):
    require_key_manager(ctx.user, "view SSH keys")
    items = [ssh_key_list_item(key) for key in ctx.store.all(SSH_KEY)]
    return success("SSH keys fetched successfully", items, totalRows=len(items))


@endpoint("GET", "/getSSHKey", op="GetSSHKey", builds={"A": 0}, style=PKI)
@endpoint("POST", "/getSSHKey", op="GetSSHKey", builds={"B": 0}, style=PKI)
def get_ssh_key(ctx):
    """GET in edition A, POST in edition B; details is a list of one SSH key."""
    require_key_manager(ctx.user, "view SSH keys")
    key = existing_key(ctx.store, required_text(ctx.details, "keyName"))
    return success(f"SSH key {key['name']} fetched successfully", [ssh_key_list_item(key)])


@endpoint("POST", "/exportSSHKey", op="ExportSSHKey", builds=ANY_BUILD, style=PKI)
def export_ssh_key(ctx):
    """The key file: ``public`` is the OpenSSH public key line, ``private`` the stored private key file
    (encrypted when the key has a passphrase).

    keyExportType exists from B 6200; an edition or build without it refuses the field like an unserved
    path. Without it the private key is exported, the one file the export gave before export types.
    """
    if "keyExportType" in ctx.details and not ctx.supports(EXPORT_TYPE_BUILDS):
        raise Unsupported("keyExportType")
    require_key_manager(ctx.user, "export SSH keys")
    key = existing_key(ctx.store, required_text(ctx.details, "keyName"))
    export_type = text(ctx.details, "keyExportType").strip() or PRIVATE
    if export_type not in (PUBLIC, PRIVATE):
        raise Failure(f"keyExportType must be {PUBLIC} or {PRIVATE}")
    if export_type == PUBLIC:
        return FileReply(f"{key['name']}.pub", f"{key['public_key']}\n".encode("ascii"), "text/plain")
    return FileReply(key["name"], key["private_key"].encode("ascii"), "application/x-pem-file")


@endpoint("DELETE", "/deleteSSHKey", op="DeleteSSHKey", builds=ANY_BUILD, style=PKI)
def delete_ssh_key(ctx):
    """Details: key_name, withoutDisassociation.

    By its name, withoutDisassociation ``true`` deletes the key without first dissociating it, that is
    without removing it from the associated users' logins; otherwise the vault dissociates it first.
    The simulator has no target hosts, so either way the key's associations go with it; the message
    says which happened.
    """
    require_key_manager(ctx.user, "delete SSH keys")
    key = existing_key(ctx.store, required_text(ctx.details, "key_name"))
    without_dissociation = flag(ctx.details, "withoutDisassociation")
    associations = associations_of_key(ctx.store, key)
    for association in associations:
        ctx.store.delete(SSH_KEY_ASSOCIATION, association["id"])
    ctx.store.delete(SSH_KEY, key["id"])
    if without_dissociation or not associations:
        return success(f"SSH key {key['name']} deleted successfully")
    return success(f"SSH key {key['name']} dissociated from {len(associations)} user(s) and deleted successfully")
