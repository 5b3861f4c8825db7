/* Ember's Secure Boot policy as the PI security architectural protocols (PI 1.8 volume 2,
 * 12.8, 12.9): LoadImage asks EFI_SECURITY2_ARCH_PROTOCOL about every image from outside
 * the firmware; in User Mode (SecureBoot 1) the image must pass image_policy_check against
 * db and dbx (UEFI 2.10 32.5). Loaders that verify images themselves (shim, systemd-stub)
 * reinstall or hook these protocols: LoadImage looks them up on each call. */
#define LOG_PREFIX "secureboot: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/image_policy.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/guids.h>
#include <efi/protocol/security.h>

static bool secure_boot_enabled(void)
{
	UINT8 value = 0;
	UINTN size = sizeof(value);

	return !EFI_ERROR(
		   variable_get(u"SecureBoot", &efi_global_variable_guid, NULL, &size, &value)) &&
	       size == 1 && value == 1;
}

/* A database's contents (none when it does not exist); false when it cannot be read. */
static bool read_database(const CHAR16 *name, void **data, UINTN *size)
{
	EFI_STATUS status =
	    variable_read(name, &efi_image_security_database_guid, data, size, NULL);

	if (status == EFI_NOT_FOUND) {
		*data = NULL;
		*size = 0;
		return true;
	}
	if (EFI_ERROR(status))
		log_debug("reading %ls: %r\n", name, status);
	return !EFI_ERROR(status);
}

static enum image_verdict check_against_databases(const void *file, UINTN size)
{
	struct image_databases dbs = {0};
	struct image_authority authority;
	void *db = NULL, *dbx = NULL;
	UINTN db_size = 0, dbx_size = 0;
	enum image_verdict verdict = IMAGE_MALFORMED;

	if (!read_database(u"db", &db, &db_size) || !read_database(u"dbx", &dbx, &dbx_size))
		goto out;
	dbs = (struct image_databases){db, db_size, dbx, dbx_size};
	verdict = image_policy_check_authority(file, size, &dbs, &authority);
	/* Measured boot logs the db entry that allowed the image, while db is at hand, and
	 * takes the image's SHA-256 from here rather than hash it again. */
	if (verdict == IMAGE_ALLOWED && authority.entry)
		measure_authority(authority.entry, authority.size);
	if (verdict == IMAGE_ALLOWED)
		measure_image_sha256(file, size, authority.sha256);
out:
	pool_free(db);
	pool_free(dbx);
	return verdict;
}

static void log_refusal(const EFI_DEVICE_PATH_PROTOCOL *file, enum image_verdict verdict)
{
	CHAR16 *text = file ? dp_to_text(file, true, true) : NULL;

	log_warn("image %ls refused by Secure Boot: %s\n", text ? text : u"(from memory)",
		 image_verdict_text(verdict));
	pool_free(text);
}

static EFI_STATUS EFIAPI file_authentication(const EFI_SECURITY2_ARCH_PROTOCOL *this,
					     const EFI_DEVICE_PATH_PROTOCOL *file, VOID *buffer,
					     UINTN size, BOOLEAN boot_policy)
{
	enum image_verdict verdict;

	(void)this, (void)boot_policy;
	measure_image_sha256(NULL, 0, NULL); /* only what this check allows */
	if (!secure_boot_enabled())
		return EFI_SUCCESS;
	/* Without the bytes nothing can be checked: refuse (the core always passes them). */
	verdict = buffer ? check_against_databases(buffer, size) : IMAGE_MALFORMED;
	if (verdict == IMAGE_ALLOWED)
		return EFI_SUCCESS;
	log_refusal(file, verdict);
	/* As OVMF: the image is not loaded at all (UEFI 2.10 7.4.1 allows this or
	 * EFI_SECURITY_VIOLATION with a handle StartImage refuses). */
	return EFI_ACCESS_DENIED;
}

/* Files of Ember's own (built in, never from a signed firmware-volume section) carry no
 * authentication status to judge; images from outside go through FileAuthentication. */
static EFI_STATUS EFIAPI file_authentication_state(const EFI_SECURITY_ARCH_PROTOCOL *this,
						   UINT32 authentication_status,
						   const EFI_DEVICE_PATH_PROTOCOL *file)
{
	(void)this, (void)file;
	return authentication_status ? EFI_SECURITY_VIOLATION : EFI_SUCCESS;
}

static EFI_SECURITY_ARCH_PROTOCOL security_arch = {file_authentication_state};
static EFI_SECURITY2_ARCH_PROTOCOL security2_arch = {file_authentication};

/* Installs both protocols on a handle of their own. */
static EFI_STATUS security_arch_install(void)
{
	EFI_HANDLE handle = NULL;

	return protocol_install_multiple(&handle, &efi_security_arch_protocol_guid, &security_arch,
					 &efi_security2_arch_protocol_guid, &security2_arch, NULL);
}
EMBER_INIT(INIT_EARLY, security_arch_install);
