"""Remote apps (edition B): the records, the admin endpoint that adds one and the
list of a resource's remote apps."""
