/* The firmware's own global variables (UEFI 2.10, 3.3): what it supports, set at every
 * start, and the defaults of the non-volatile settings when they are missing or invalid.
 * SetupMode and SecureBoot follow whether a PK is enrolled (var_modes.c). */
#include "var_internal.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>
#include <efi/image_authentication.h>

#define BR (VAR_BS | VAR_RT)

static const char platform_lang_codes[] = "en-US";
static const char lang_codes[] = "eng";

/* Sets a variable as the firmware, replacing one with other attributes. */
static EFI_STATUS firmware_put(struct var_service *svc, const CHAR16 *name, UINT32 attributes,
			       const void *data, UINTN size)
{
	UINT32 name_size = var_name_size(name);
	struct var_ref ref;

	if (var_lookup(svc, name, name_size, &efi_global_variable_guid, &ref) &&
	    ref.attributes != attributes) {
		EFI_STATUS status =
		    vstore_write(ref.store, name, name_size, &efi_global_variable_guid,
				 ref.attributes, NULL, 0, false);
		if (EFI_ERROR(status))
			return status;
	}
	return var_set_firmware(svc, name, &efi_global_variable_guid, attributes, size, data);
}

/* Whether the variable exists with these attributes and a value its rule accepts. */
static bool setting_ok(struct var_service *svc, const CHAR16 *name, UINT32 attributes)
{
	const struct var_rule *rule = var_rule_find(name, &efi_global_variable_guid);
	UINT8 value[64];
	UINTN size = sizeof(value);
	UINT32 found;

	return !EFI_ERROR(var_get(svc, name, &efi_global_variable_guid, &found, &size, value)) &&
	       found == attributes && rule && var_check_value(svc, rule->check, value, size, 0);
}

/* A non-volatile setting keeps its value unless it is missing or invalid. */
static EFI_STATUS default_setting(struct var_service *svc, const CHAR16 *name, const void *data,
				  UINTN size)
{
	if (setting_ok(svc, name, VAR_NBR))
		return EFI_SUCCESS;
	return firmware_put(svc, name, VAR_NBR, data, size);
}

/* A non-volatile value only the firmware sets: written when it differs. */
static EFI_STATUS fixed_setting(struct var_service *svc, const CHAR16 *name, const void *data,
				UINTN size)
{
	UINT8 value[16];
	UINTN have = sizeof(value);
	UINT32 attributes;

	if (!EFI_ERROR(var_get(svc, name, &efi_global_variable_guid, &attributes, &have, value)) &&
	    attributes == VAR_NBR && have == size && !mem_cmp(value, data, size))
		return EFI_SUCCESS;
	return firmware_put(svc, name, VAR_NBR, data, size);
}

/* The signature types the signature databases may hold (3.3, SignatureSupport). */
static const EFI_GUID signature_support[] = {
    EFI_CERT_SHA1_GUID,	       EFI_CERT_SHA256_GUID,	  EFI_CERT_SHA384_GUID,
    EFI_CERT_SHA512_GUID,      EFI_CERT_X509_GUID,	  EFI_CERT_X509_SHA256_GUID,
    EFI_CERT_X509_SHA384_GUID, EFI_CERT_X509_SHA512_GUID,
};

static EFI_STATUS install_secure_boot(struct var_service *svc)
{
	UINT8 user = var_pk_enrolled(svc), setup_mode = !user;
	EFI_STATUS status;

	status = firmware_put(svc, u"SecureBoot", BR, &user, 1);
	if (!EFI_ERROR(status))
		status = firmware_put(svc, u"SetupMode", BR, &setup_mode, 1);
	if (!EFI_ERROR(status))
		status = firmware_put(svc, u"SignatureSupport", BR, signature_support,
				      sizeof(signature_support));
	if (!EFI_ERROR(status))
		status = var_defaults_install(svc);
	return status;
}

static EFI_STATUS install_capabilities(struct var_service *svc)
{
	static const UINT32 boot_option_support = EFI_BOOT_OPTION_SUPPORT_APP;
	/* BOOT_TO_FW_UI (UEFI 2.10, 8.5.4): the boot manager opens the setup screen, or its
	 * menu where there is none, when the OS asks. */
	static const UINT64 os_indications_supported = 1;
	EFI_STATUS status;

	status = firmware_put(svc, u"PlatformLangCodes", BR, platform_lang_codes,
			      sizeof(platform_lang_codes));
	if (!EFI_ERROR(status))
		status = firmware_put(svc, u"LangCodes", BR, lang_codes, sizeof(lang_codes));
	if (!EFI_ERROR(status))
		status = install_secure_boot(svc);
	if (!EFI_ERROR(status))
		status = firmware_put(svc, u"BootOptionSupport", BR, &boot_option_support, 4);
	if (!EFI_ERROR(status))
		status =
		    firmware_put(svc, u"OsIndicationsSupported", BR, &os_indications_supported, 8);
	return status;
}

EFI_STATUS var_globals_install(struct var_service *svc)
{
	static const UINT16 timeout = 0, hwerr_supported = 1;
	EFI_STATUS status = install_capabilities(svc);

	if (!EFI_ERROR(status))
		status = default_setting(svc, u"PlatformLang", platform_lang_codes,
					 sizeof(platform_lang_codes));
	if (!EFI_ERROR(status))
		status = default_setting(svc, u"Lang", lang_codes, sizeof(lang_codes));
	if (!EFI_ERROR(status))
		status = default_setting(svc, u"Timeout", &timeout, sizeof(timeout));
	if (!EFI_ERROR(status))
		status = fixed_setting(svc, u"HwErrRecSupport", &hwerr_supported,
				       sizeof(hwerr_supported));
	return status;
}
