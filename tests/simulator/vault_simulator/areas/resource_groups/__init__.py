"""Resource groups: create, list, associate and disassociate resources, delete
(with subgroups), the name-to-id look-up and the groups of a resource. The record
and its members are in ``core.groups``, the dynamic criteria in ``core.group_criteria``."""
