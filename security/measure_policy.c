/* PCR 7, the Secure Boot policy (PFP 1.05 3.3.4.8, 8.2.2): the configuration variables
 * SecureBoot, PK, KEK, db and dbx as EV_EFI_VARIABLE_DRIVER_CONFIG (measured absent too, with
 * no data), then the separator; afterwards, for each image Secure Boot allowed, the db
 * entry that allowed it (EV_EFI_VARIABLE_AUTHORITY), once per distinct entry. */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/crypto/hash.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

/* Distinct authorities remembered by their SHA-256; more than this are measured again. */
#define AUTHORITIES_MAX 32

static bool policy_measured;

static void measure_policy_variable(const CHAR16 *name, const EFI_GUID *guid)
{
	void *data = NULL;
	UINTN size = 0;
	EFI_STATUS status = variable_read(name, guid, &data, &size, NULL);

	if (EFI_ERROR(status)) {
		if (status != EFI_NOT_FOUND)
			log_warn("%ls unreadable (%r): measured as absent\n", name, status);
		data = NULL;
		size = 0;
	}
	measure_variable(PCR_SECURE_BOOT_POLICY, EV_EFI_VARIABLE_DRIVER_CONFIG, name, guid, data,
			 size, false);
	pool_free(data);
}

void measure_secure_boot_policy(void)
{
	if (policy_measured || !measure_enabled())
		return;
	policy_measured = true;
	measure_policy_variable(u"SecureBoot", &efi_global_variable_guid);
	measure_policy_variable(u"PK", &efi_global_variable_guid);
	measure_policy_variable(u"KEK", &efi_global_variable_guid);
	measure_policy_variable(u"db", &efi_image_security_database_guid);
	measure_policy_variable(u"dbx", &efi_image_security_database_guid);
	measure_separator(PCR_SECURE_BOOT_POLICY);
}

void measure_authority(const void *signature_data, UINTN size)
{
	static UINT8 seen[AUTHORITIES_MAX][32];
	static UINTN seen_count;
	UINT8 digest[32];

	if (!measure_enabled())
		return;
	measure_secure_boot_policy();
	hash_buffer(HASH_SHA256, signature_data, size, digest);
	for (UINTN i = 0; i < seen_count; i++)
		if (mem_cmp(seen[i], digest, sizeof(digest)) == 0)
			return;
	if (seen_count < AUTHORITIES_MAX)
		mem_copy(seen[seen_count++], digest, sizeof(digest));
	measure_variable(PCR_SECURE_BOOT_POLICY, EV_EFI_VARIABLE_AUTHORITY, u"db",
			 &efi_image_security_database_guid, signature_data, size, false);
}
