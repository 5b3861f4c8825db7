/* EMBER_VARIABLE_OWNER_PROTOCOL (include/ember/core/variable_owner.h): the firmware's own
 * setup program writes Secure Boot's keys as the platform owner at the console. The rules
 * that keep every other program out are here, in one place (docs/setup-settings.md). */
#define LOG_PREFIX "owner: "
#include "../services.h"
#include "../image/image.h"
#include <ember/core/log.h>
#include <ember/core/variable_owner.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define OWNER_ATTRIBUTES                                                                           \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)

static EFI_HANDLE owner_image; /* the setup program's handle while it may run */

/* Why the owner may not write now; NULL when it may. */
static const char *owner_refusal(void)
{
	if (core_boot_services_exited)
		return "boot services have ended";
	if (!owner_image || image_current_handle() != owner_image)
		return "the caller is not the firmware's setup program";
	if (image_outside_application_started())
		return "a program from outside the firmware has run since the reset";
	return NULL;
}

static bool owner_variable(const CHAR16 *name, const EFI_GUID *guid)
{
	if (guid_eq(guid, &efi_global_variable_guid))
		return !str16_cmp(name, u"PK") || !str16_cmp(name, u"KEK");
	if (guid_eq(guid, &efi_image_security_database_guid))
		return !str16_cmp(name, u"db") || !str16_cmp(name, u"dbx") ||
		       !str16_cmp(name, u"dbt");
	return false;
}

static EMBER_VARIABLE_OWNER_PROTOCOL owner_protocol;

static EFI_STATUS EFIAPI owner_usable(EMBER_VARIABLE_OWNER_PROTOCOL *this)
{
	if (this != &owner_protocol)
		return EFI_INVALID_PARAMETER;
	return owner_refusal() ? EFI_ACCESS_DENIED : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI owner_set_key(EMBER_VARIABLE_OWNER_PROTOCOL *this, const CHAR16 *name,
				       const EFI_GUID *guid, UINT32 attributes, UINTN size,
				       const void *data)
{
	const char *refusal = owner_refusal();
	UINT32 append = attributes & EFI_VARIABLE_APPEND_WRITE;

	if (this != &owner_protocol)
		return EFI_INVALID_PARAMETER;
	if (refusal) {
		log_warn("a key write as the platform owner was refused: %s\n", refusal);
		return EFI_ACCESS_DENIED;
	}
	if (!name || !guid || (size && !data) || !owner_variable(name, guid) ||
	    (attributes & ~EFI_VARIABLE_APPEND_WRITE) != OWNER_ATTRIBUTES ||
	    (append && !str16_cmp(name, u"PK")))
		return EFI_INVALID_PARAMETER;
	log_info("%ls %s by the platform owner (%u bytes)\n", name,
		 !size	  ? "deleted"
		 : append ? "appended to"
			  : "written",
		 (unsigned)size);
	return variable_set_owner(name, guid, attributes, size, data);
}

static EMBER_VARIABLE_OWNER_PROTOCOL owner_protocol = {
    .Revision = EMBER_VARIABLE_OWNER_REVISION,
    .SetKey = owner_set_key,
    .Usable = owner_usable,
};

EFI_STATUS variable_owner_grant(EFI_HANDLE handle)
{
	struct image *img = image_lookup(handle);

	/* Only a program of the firmware's own, not started yet, and one at a time. */
	if (!img || img->outside || img->started || owner_image)
		return EFI_ACCESS_DENIED;
	owner_image = handle;
	return protocol_install(&owner_image, &ember_variable_owner_protocol_guid, &owner_protocol);
}

void variable_owner_revoke(EFI_HANDLE handle)
{
	if (!handle || handle != owner_image)
		return;
	owner_image = NULL;
	/* The handle outlives a returned application while this protocol is on it. */
	protocol_uninstall(handle, &ember_variable_owner_protocol_guid, &owner_protocol);
}
