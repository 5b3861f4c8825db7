/* GetVariable and GetNextVariableName (UEFI 2.10, 8.2.1 and 8.2.2). Variables are
 * enumerated non-volatile store first, each store in index order. */
#include "var_internal.h"
#include <ember/lib/str.h>

/* A visible variable by name; false when there is none. */
static bool find_visible(struct var_service *svc, const CHAR16 *name, UINT32 name_size,
			 const EFI_GUID *guid, struct var_ref *ref)
{
	return name_size && var_lookup(svc, name, name_size, guid, ref) &&
	       var_visible(svc, ref->attributes);
}

EFI_STATUS var_get(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
		   UINT32 *attributes, UINTN *data_size, void *data)
{
	struct var_ref ref;

	if (!name || !guid || !data_size)
		return EFI_INVALID_PARAMETER;
	if (!find_visible(svc, name, var_name_size(name), guid, &ref))
		return EFI_NOT_FOUND;
	/* 8.2.1: Attributes is set both on success and on EFI_BUFFER_TOO_SMALL. */
	if (attributes)
		*attributes = ref.attributes;
	if (*data_size < ref.data_size) {
		*data_size = ref.data_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!data)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(vstore_read_data(ref.store, ref.entry, ref.head, data, ref.data_size)))
		return EFI_DEVICE_ERROR;
	*data_size = ref.data_size;
	return EFI_SUCCESS;
}

/* A place in the enumeration: a store and an entry in it. */
struct var_cursor {
	struct vstore *store;
	UINT32 entry;
};

/* Moves to the first visible variable at or after the cursor; false at the end. */
static bool next_visible(struct var_service *svc, struct var_cursor *c)
{
	for (;;) {
		UINT32 i = vstore_next(c->store, c->entry);
		if (i != VSTORE_NONE && var_visible(svc, vstore_entry(c->store, i)->attributes)) {
			c->entry = i;
			return true;
		}
		if (i != VSTORE_NONE) {
			c->entry = i + 1;
			continue;
		}
		if (c->store == &svc->vol)
			return false;
		*c = (struct var_cursor){&svc->vol, 0};
	}
}

EFI_STATUS var_get_next(struct var_service *svc, UINTN *name_size, CHAR16 *name, EFI_GUID *guid)
{
	struct var_cursor c = {&svc->nv, 0};
	const struct vstore_entry *e;
	struct var_ref ref;
	UINTN units, len;

	if (!name_size || !name || !guid)
		return EFI_INVALID_PARAMETER;
	units = *name_size / sizeof(CHAR16);
	len = str16_nlen(name, units);
	if (len == units)
		return EFI_INVALID_PARAMETER; /* no terminator within VariableNameSize */
	if (len) {
		/* 8.2.2: the name and GUID given must be those of an existing variable. */
		if (!find_visible(svc, name, var_name_size(name), guid, &ref))
			return EFI_INVALID_PARAMETER;
		c = (struct var_cursor){ref.store, ref.entry + 1};
	}
	if (!next_visible(svc, &c))
		return EFI_NOT_FOUND;
	e = vstore_entry(c.store, c.entry);
	if (*name_size < e->name_size) {
		*name_size = e->name_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (EFI_ERROR(vstore_read_name(c.store, c.entry, name)) ||
	    EFI_ERROR(vstore_read_guid(c.store, c.entry, guid)))
		return EFI_DEVICE_ERROR;
	*name_size = e->name_size;
	return EFI_SUCCESS;
}
