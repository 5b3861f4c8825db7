/* SetVariable (UEFI 2.10, 8.2.3): argument and attribute rules, deletion, APPEND_WRITE,
 * the specification's variables, the quota of each class, then the store. */
#include "var_internal.h"
#include <ember/lib/str.h>

static EFI_STATUS check_arguments(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
				  UINTN data_size, const void *data)
{
	if (!name || !guid || (data_size && !data) || !name[0] || (attributes & ~VAR_KNOWN))
		return EFI_INVALID_PARAMETER;
	/* Only time-based authentication is supported: the count-based one is deprecated
	 * (8.2.3 asks for EFI_UNSUPPORTED) and Ember has no enhanced one. */
	if (attributes & VAR_AUTH & ~VAR_AT)
		return EFI_UNSUPPORTED;
	if (data_size > VARSTORE_MAX_VARIABLE)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* Rules for attributes that grant access (a request without any deletes, 8.2.3). */
static EFI_STATUS check_attributes(const struct set_request *r)
{
	UINT32 a = r->attributes;

	if ((a & VAR_RT) && !(a & VAR_BS))
		return EFI_INVALID_PARAMETER;
	/* Hardware error records: HwErrRec#### under their GUID, NV+BS+RT, and nothing else. */
	if (!!(a & VAR_HR) != var_is_hwerr_key(r->name, r->guid))
		return EFI_INVALID_PARAMETER;
	if ((a & VAR_HR) && (a & VAR_NBR) != VAR_NBR)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS remove_variable(struct var_service *svc, const struct set_request *r)
{
	if (!r->exists || !var_visible(svc, r->current.attributes))
		return EFI_NOT_FOUND;
	return vstore_write(r->current.store, r->name, r->name_size, r->guid, r->current.attributes,
			    NULL, 0, false);
}

/* The specification's own variables: documented names only, their attributes, valid
 * values. */
static EFI_STATUS check_rules(struct var_service *svc, const struct set_request *r)
{
	const struct var_rule *rule = var_rule_find(r->name, r->guid);
	UINT32 old = r->append && r->exists ? r->current.data_size : 0;

	if (!rule)
		return var_guid_is_reserved(r->guid) ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
	if (r->attributes != rule->attributes ||
	    !var_check_value(svc, rule->check, r->data, r->size, old))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* Writes data after the current value (append) or as the new one, within the quota of
 * the variable's class. */
static EFI_STATUS store_data(struct var_service *svc, const struct set_request *r,
			     const UINT8 *data, UINT32 size, bool append)
{
	struct vstore *store = (r->attributes & VAR_NV) ? &svc->nv : &svc->vol;
	UINT32 old_data = append && r->exists ? r->current.head + r->current.data_size : 0;
	UINT32 used = var_class_used(store, r->attributes);
	UINT32 record;

	if ((UINT64)r->name_size + old_data + size > VARSTORE_MAX_VARIABLE)
		return EFI_INVALID_PARAMETER;
	record = vstore_record_size(r->name_size, old_data + size);
	if (r->exists)
		used -= vstore_record_size(r->name_size, r->current.head + r->current.data_size);
	if ((UINT64)used + record > var_class_capacity(svc, store, r->attributes))
		return EFI_OUT_OF_RESOURCES;
	return vstore_write(store, r->name, r->name_size, r->guid, r->attributes, data, size,
			    append);
}

EFI_STATUS var_store_record(struct var_service *svc, const struct set_request *r, const UINT8 *data,
			    UINT32 size)
{
	return store_data(svc, r, data, size, false);
}

static EFI_STATUS set_variable(struct var_service *svc, struct set_request *r, bool firmware)
{
	bool no_access = !(r->attributes & VAR_ACCESS);
	const struct var_rule *rule;
	EFI_STATUS status;

	if (!no_access && EFI_ERROR(status = check_attributes(r)))
		return status;
	rule = firmware ? NULL : var_rule_find(r->name, r->guid);
	if (rule && (rule->flags & VAR_RULE_READ_ONLY))
		return EFI_WRITE_PROTECTED;
	r->exists = var_lookup(svc, r->name, r->name_size, r->guid, &r->current);
	/* After ExitBootServices volatile variables are read-only, and only NV+RT ones can be
	 * set (8.2.3). */
	if (svc->at_runtime && r->exists && var_visible(svc, r->current.attributes) &&
	    !(r->current.attributes & VAR_NV))
		return EFI_WRITE_PROTECTED;
	if (svc->at_runtime && !no_access &&
	    (r->attributes & (VAR_NV | VAR_RT)) != (VAR_NV | VAR_RT))
		return EFI_INVALID_PARAMETER;
	if (r->exists && !no_access && r->attributes != r->current.attributes)
		return EFI_INVALID_PARAMETER;
	if ((r->attributes & VAR_AT) || (r->exists && (r->current.attributes & VAR_AT)))
		return var_auth_set(svc, r, firmware);
	if (no_access || (!r->size && !r->append))
		return remove_variable(svc, r);
	if (!r->size)
		return EFI_SUCCESS; /* appending nothing changes nothing */
	if (!firmware && EFI_ERROR(status = check_rules(svc, r)))
		return status;
	return store_data(svc, r, r->data, r->size, r->append);
}

static EFI_STATUS set_common(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
			     UINT32 attributes, UINTN data_size, const void *data, bool firmware)
{
	struct set_request r;
	EFI_STATUS status = check_arguments(name, guid, attributes, data_size, data);

	if (EFI_ERROR(status))
		return status;
	r = (struct set_request){
	    .name = name,
	    .name_size = var_name_size(name),
	    .guid = guid,
	    .attributes = attributes & ~VAR_APPEND,
	    .append = attributes & VAR_APPEND,
	    .data = data,
	    .size = (UINT32)data_size,
	};
	if (!r.name_size)
		return EFI_INVALID_PARAMETER;
	return set_variable(svc, &r, firmware);
}

EFI_STATUS var_set(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
		   UINT32 attributes, UINTN data_size, const void *data)
{
	return set_common(svc, name, guid, attributes, data_size, data, false);
}

EFI_STATUS var_set_firmware(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
			    UINT32 attributes, UINTN data_size, const void *data)
{
	return set_common(svc, name, guid, attributes, data_size, data, true);
}
