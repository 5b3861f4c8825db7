/* EFI_UNICODE_COLLATION_PROTOCOL2 ("en") and the EFI 1.10 EFI_UNICODE_COLLATION_PROTOCOL
 * ("eng"), published once at start-up on a handle of their own (UEFI 2.10, 19.1). */
#define LOG_PREFIX "collation: "
#include "collation.h"
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

static INTN EFIAPI stri_coll(EFI_UNICODE_COLLATION_PROTOCOL *This, CHAR16 *s1, CHAR16 *s2)
{
	return collation_compare(s1, s2);
}

static BOOLEAN EFIAPI metai_match(EFI_UNICODE_COLLATION_PROTOCOL *This, CHAR16 *String,
				  CHAR16 *Pattern)
{
	return collation_match(String, Pattern);
}

static VOID EFIAPI str_lwr(EFI_UNICODE_COLLATION_PROTOCOL *This, CHAR16 *Str)
{
	collation_str_lower(Str);
}

static VOID EFIAPI str_upr(EFI_UNICODE_COLLATION_PROTOCOL *This, CHAR16 *Str)
{
	collation_str_upper(Str);
}

static VOID EFIAPI fat_to_str(EFI_UNICODE_COLLATION_PROTOCOL *This, UINTN FatSize, CHAR8 *Fat,
			      CHAR16 *String)
{
	collation_fat_to_str(FatSize, Fat, String);
}

static BOOLEAN EFIAPI str_to_fat(EFI_UNICODE_COLLATION_PROTOCOL *This, CHAR16 *String,
				 UINTN FatSize, CHAR8 *Fat)
{
	return collation_str_to_fat(String, FatSize, Fat);
}

static CHAR8 languages2[] = "en";
static CHAR8 languages[] = "eng";

EFI_UNICODE_COLLATION_PROTOCOL collation_english2 = {
    stri_coll, metai_match, str_lwr, str_upr, fat_to_str, str_to_fat, languages2,
};

EFI_UNICODE_COLLATION_PROTOCOL collation_english = {
    stri_coll, metai_match, str_lwr, str_upr, fat_to_str, str_to_fat, languages,
};

EFI_STATUS collation_publish(void)
{
	static EFI_HANDLE handle;
	EFI_STATUS status;

	if (handle)
		return EFI_SUCCESS;
	status = protocol_install_multiple(
	    &handle, &efi_unicode_collation_protocol2_guid, &collation_english2,
	    &efi_unicode_collation_protocol_guid, &collation_english, NULL);
	if (EFI_ERROR(status))
		log_debug("installing the protocols: %r\n", status);
	return status;
}
EMBER_INIT(INIT_EARLY, collation_publish);
