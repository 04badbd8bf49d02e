"""Organizations (kind ``organization``) and the records that belong to one.

Every vault starts with one organization; more are added through the admin
endpoint ``/__simulator/organizations`` or ``--organization``. The header
``orgName`` selects the organization a request acts in; without it the first
organization acts. Resources and resource groups belong to the organization
they were created in (``org_id``), and lists show only those of the selected
one. Users and user groups belong to no organization.
"""

from vault_simulator.core.records import ORGANIZATION
from vault_simulator.core.replies import Failure

DEFAULT_ORGANIZATION = "Default Organization"
# The id of the first organization: records stored without ``org_id`` belong to it.
DEFAULT_ORGANIZATION_ID = "1"


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


def in_organization(record, org):
    """True when ``record`` (a resource or resource group) belongs to organization ``org``."""
    return record.get("org_id", DEFAULT_ORGANIZATION_ID) == org["id"]


def organization_of(record):
    """The organization (as ``in_organization`` needs it) a resource or resource group belongs to."""
    return {"id": record.get("org_id", DEFAULT_ORGANIZATION_ID)}
