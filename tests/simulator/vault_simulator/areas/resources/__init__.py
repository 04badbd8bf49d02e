"""Resources and their accounts: create, list, edit, delete, the name-to-id look-ups,
account details, additional (custom) fields, the file of a File Store or License Store
resource, TOTP, and the resource types the vault knows."""
