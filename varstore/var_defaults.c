/* The platform's default Secure Boot keys (UEFI 2.10 3.3: PKDefault, KEKDefault,
 * dbDefault, dbxDefault, dbtDefault, dbrDefault): taken at each start from the VARS
 * template's variables under EMBER_SECURE_BOOT_DEFAULTS_GUID and published read-only
 * (BS+RT, volatile) under EFI_GLOBAL_VARIABLE. Absent when the template has none. */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define BR (VAR_BS | VAR_RT)

static const CHAR16 default_names[][12] = {
    u"PKDefault", u"KEKDefault", u"dbDefault", u"dbxDefault", u"dbtDefault", u"dbrDefault",
};

/* Publishes one default when the template holds a valid signature list chain for it. */
static EFI_STATUS publish(struct var_service *svc, const CHAR16 *name)
{
	UINT32 name_size = var_name_size(name);
	UINT8 *value = svc->auth_mem; /* free while the firmware starts */
	struct var_ref ref;

	if (!var_lookup(svc, name, name_size, &ember_secure_boot_defaults_guid, &ref) ||
	    !(ref.attributes & VAR_NV) || !ref.data_size || ref.data_size > VAR_AUTH_MEM_SIZE)
		return EFI_SUCCESS;
	if (EFI_ERROR(vstore_read_data(ref.store, ref.entry, ref.head, value, ref.data_size)))
		return EFI_DEVICE_ERROR;
	if (!var_siglist_valid(value, ref.data_size)) {
		log_warn("the template's %ls is not a valid signature list; it is not "
			 "published\n",
			 name);
		return EFI_SUCCESS;
	}
	return var_set_firmware(svc, name, &efi_global_variable_guid, BR, ref.data_size, value);
}

EFI_STATUS var_defaults_install(struct var_service *svc)
{
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 i = 0; i < ARRAY_SIZE(default_names) && !EFI_ERROR(status); i++)
		status = publish(svc, default_names[i]);
	return status;
}
