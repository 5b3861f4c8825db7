/* The Secure Boot modes (UEFI 2.10, 32.3): Setup Mode while no PK is enrolled, User Mode
 * once one is; SetupMode and SecureBoot say which. Audit and Deployed Mode are not
 * offered (docs/varstore.md says why). */
#include "var_internal.h"
#include <ember/lib/str.h>

#define BR (VAR_BS | VAR_RT)

bool var_pk_enrolled(struct var_service *svc)
{
	struct var_ref ref;

	return var_lookup(svc, u"PK", var_name_size(u"PK"), &efi_global_variable_guid, &ref) &&
	       (ref.attributes & VAR_NV) && ref.data_size;
}

/* Writes a one-byte mode variable in the volatile store directly: they change after
 * ExitBootServices too (deleting PK at runtime), when volatile variables are read-only
 * to SetVariable. */
static EFI_STATUS put_mode(struct var_service *svc, const CHAR16 *name, UINT8 value)
{
	UINT32 name_size = var_name_size(name);
	struct var_ref ref;
	UINT8 old;

	if (var_lookup(svc, name, name_size, &efi_global_variable_guid, &ref) &&
	    ref.attributes == BR && ref.data_size == 1 &&
	    !EFI_ERROR(vstore_read_data(ref.store, ref.entry, 0, &old, 1)) && old == value)
		return EFI_SUCCESS;
	return vstore_write(&svc->vol, name, name_size, &efi_global_variable_guid, BR, &value, 1,
			    false);
}

EFI_STATUS var_modes_update(struct var_service *svc)
{
	bool user = var_pk_enrolled(svc);
	EFI_STATUS status = put_mode(svc, u"SetupMode", !user);

	/* 32.3: SecureBoot is 1 in User Mode (Ember has no switch to turn it off there). */
	if (!EFI_ERROR(status))
		status = put_mode(svc, u"SecureBoot", user);
	return status;
}
