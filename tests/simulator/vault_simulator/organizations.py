"""Organizations (kind ``organization``): the header ``orgName`` selects one.

Every vault starts with one organization; more are added through the admin
endpoint ``/__simulator/organizations`` or ``--organization``. Resources and
resource groups belong to the organization they were created in, and lists
show only those of the selected one. Without ``orgName`` the first
organization acts.
"""
from vault_simulator.replies import Failure

ORGANIZATION = "organization"
DEFAULT_ORGANIZATION = "Default Organization"


def add_organization(store, display_name):
    """Store an organization named ``display_name`` (unique); return it."""
    display_name = display_name.strip()
    if not display_name:
        raise ValueError("an organization needs a display name")
    existing = next((o for o in store.all(ORGANIZATION) if o["displayName"] == display_name), None)
    if existing:
        return existing
    org_id = store.next_id(ORGANIZATION)
    organization = {"id": org_id, "name": display_name.replace(" ", "").lower(), "displayName": display_name}
    store.put(ORGANIZATION, org_id, organization)
    return organization


def ensure_default_organization(store):
    if not store.all(ORGANIZATION):
        add_organization(store, DEFAULT_ORGANIZATION)


def selected_organization(store, org_name):
    """The organization whose display name is ``org_name``; the first one for none."""
    organizations = store.all(ORGANIZATION)
    if not org_name:
        return organizations[0]
    found = next((o for o in organizations if o["displayName"] == org_name), None)
    if found is None:
        raise Failure(f"Organization {org_name} does not exist")
    return found
