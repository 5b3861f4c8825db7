/* Changing Secure Boot's keys from the setup screen (sb.h). */
#include "sb.h"
#include "pure/sb_file.h"
#include <efi/image_authentication.h>
#include <ember/core/variable_owner.h>
#include <ember/lib/guids.h>

#define NBRA                                                                                       \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)
/* The largest key file: a variable's value is at most 0x8400 bytes with its name. */
#define SB_FILE_MAX 0x9000u

/* SignatureOwner of the entries the setup screen makes from certificates. */
static const EFI_GUID setup_owner = {
    0x5e1d6a3c, 0x2b47, 0x4f90, {0xa1, 0x6c, 0x3d, 0x8e, 0x72, 0x05, 0xb9, 0x15}};

static const CHAR16 *const key_names[SB_KEYS] = {u"PK", u"KEK", u"db", u"dbx"};
static const CHAR16 *const default_names[SB_KEYS] = {u"PKDefault", u"KEKDefault", u"dbDefault",
						     u"dbxDefault"};

const CHAR16 *sb_key_name(enum sb_key key)
{
	return key < SB_KEYS ? key_names[key] : u"?";
}

static const EFI_GUID *key_guid(enum sb_key key)
{
	return key <= SB_KEK ? &efi_global_variable_guid : &efi_image_security_database_guid;
}

/* The owner protocol, when the firmware put it on this program's handle. */
static EMBER_VARIABLE_OWNER_PROTOCOL *owner(void)
{
	EMBER_VARIABLE_OWNER_PROTOCOL *o;

	if (EFI_ERROR(app_bs->HandleProtocol(
		app_image, (EFI_GUID *)&ember_variable_owner_protocol_guid, (void **)&o)))
		return NULL;
	return o;
}

static EFI_STATUS refuse(const char **why, const char *text, EFI_STATUS status)
{
	if (why)
		*why = text;
	return status;
}

/* Writes a database as the owner: the whole value, merged (append) or replacing it. */
static EFI_STATUS owner_write(enum sb_key key, const UINT8 *data, UINTN size, bool append,
			      const char **why)
{
	EMBER_VARIABLE_OWNER_PROTOCOL *o = owner();
	EFI_STATUS status;

	if (!o || EFI_ERROR(o->Usable(o)))
		return refuse(why,
			      "keys can only be changed in the setup screen opened at start, "
			      "before any program ran",
			      EFI_ACCESS_DENIED);
	status = o->SetKey(o, key_names[key], key_guid(key),
			   NBRA | (append ? EFI_VARIABLE_APPEND_WRITE : 0), size, data);
	if (status == EFI_INVALID_PARAMETER)
		return refuse(why, "the firmware refused the key (PK must be one certificate)",
			      status);
	if (EFI_ERROR(status))
		return refuse(why, "the firmware did not write the key", status);
	return EFI_SUCCESS;
}

/* A signed update, as an OS would write it: in Setup Mode anything well formed is taken,
 * in User Mode it must be signed by the key the variable needs. sign-efi-sig-list signs
 * the attributes too, so an update made with -a (APPEND_WRITE) is tried second. */
static EFI_STATUS auth_write(enum sb_key key, const UINT8 *data, UINTN size, const char **why)
{
	EFI_STATUS status = app_rt->SetVariable((CHAR16 *)key_names[key], (EFI_GUID *)key_guid(key),
						NBRA, size, (void *)data);

	if (status == EFI_SECURITY_VIOLATION && key != SB_PK)
		status = app_rt->SetVariable((CHAR16 *)key_names[key], (EFI_GUID *)key_guid(key),
					     NBRA | EFI_VARIABLE_APPEND_WRITE, size, (void *)data);
	if (status == EFI_SECURITY_VIOLATION)
		return refuse(why, "the signed update's signature or time was refused", status);
	if (EFI_ERROR(status))
		return refuse(why, "the firmware refused the signed update", status);
	return EFI_SUCCESS;
}

/* A list from a file, or made of a certificate, is added to KEK, db and dbx; PK's must
 * hold one certificate and replaces it. */
static EFI_STATUS enroll_list(enum sb_key key, const UINT8 *esl, UINTN size, const char **why)
{
	if (key == SB_PK && sb_siglist_count(esl, size) != 1)
		return refuse(why, "a PK list must hold one certificate", EFI_INVALID_PARAMETER);
	return owner_write(key, esl, size, key != SB_PK, why);
}

/* A certificate (PEM decoded to DER first) becomes a list of one X509 entry, owned by the
 * setup screen. One scratch buffer holds the list, then the DER. */
static EFI_STATUS enroll_certificate(enum sb_key key, bool pem, const UINT8 *cert, UINTN size,
				     const char **why)
{
	UINT8 *esl = app_alloc(2 * SB_FILE_MAX);
	UINTN esl_size;
	EFI_STATUS status;

	if (!esl)
		return refuse(why, "out of memory", EFI_OUT_OF_RESOURCES);
	if (pem) {
		size = sb_pem_to_der(cert, size, esl + SB_FILE_MAX, SB_FILE_MAX);
		cert = esl + SB_FILE_MAX;
	}
	esl_size = size ? sb_esl_from_der(cert, size, &setup_owner, esl, SB_FILE_MAX) : 0;
	if (!size)
		status = refuse(why, "the PEM file holds no readable certificate", EFI_UNSUPPORTED);
	else if (!esl_size)
		status = refuse(why, "the certificate is too big", EFI_BAD_BUFFER_SIZE);
	else
		status = enroll_list(key, esl, esl_size, why);
	app_free(esl);
	return status;
}

EFI_STATUS sb_enroll(enum sb_key key, const UINT8 *data, UINTN size, const char **why)
{
	enum sb_file_kind kind;

	if (key >= SB_KEYS)
		return EFI_INVALID_PARAMETER;
	switch (kind = sb_file_kind(data, size)) {
	case SB_FILE_AUTH:
		return auth_write(key, data, size, why);
	case SB_FILE_ESL:
		return enroll_list(key, data, size, why);
	case SB_FILE_DER:
	case SB_FILE_PEM:
		return enroll_certificate(key, kind == SB_FILE_PEM, data, size, why);
	default:
		return refuse(why,
			      "not a certificate (DER or PEM), an EFI_SIGNATURE_LIST or a signed "
			      ".auth update",
			      EFI_UNSUPPORTED);
	}
}

/* Reads a whole file of at most SB_FILE_MAX bytes into a pool buffer. */
static EFI_STATUS read_file(EFI_HANDLE volume, const CHAR16 *path, UINT8 **data, UINTN *size)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *root = NULL, *f = NULL;
	EFI_STATUS status;

	*data = app_alloc(SB_FILE_MAX + 1);
	if (!*data)
		return EFI_OUT_OF_RESOURCES;
	status = app_bs->HandleProtocol(volume, (EFI_GUID *)&efi_simple_file_system_protocol_guid,
					(void **)&fs);
	if (!EFI_ERROR(status))
		status = fs->OpenVolume(fs, &root);
	if (!EFI_ERROR(status))
		status = root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	*size = SB_FILE_MAX + 1;
	if (!EFI_ERROR(status))
		status = f->Read(f, size, *data);
	if (!EFI_ERROR(status) && *size > SB_FILE_MAX)
		status = EFI_BAD_BUFFER_SIZE;
	if (f)
		f->Close(f);
	if (root)
		root->Close(root);
	if (EFI_ERROR(status)) {
		app_free(*data);
		*data = NULL;
	}
	return status;
}

EFI_STATUS sb_enroll_file(enum sb_key key, EFI_HANDLE volume, const CHAR16 *path, const char **why)
{
	UINT8 *data;
	UINTN size;
	EFI_STATUS status = read_file(volume, path, &data, &size);

	if (status == EFI_BAD_BUFFER_SIZE)
		return refuse(why, "the file is too big for a key", status);
	if (EFI_ERROR(status))
		return refuse(why, "the file could not be read", status);
	status = sb_enroll(key, data, size, why);
	app_free(data);
	return status;
}

static EFI_STATUS read_variable(const CHAR16 *name, const EFI_GUID *guid, UINT8 **data, UINTN *size)
{
	EFI_STATUS status;

	*data = NULL;
	*size = 0;
	status = app_rt->GetVariable((CHAR16 *)name, (EFI_GUID *)guid, NULL, size, NULL);
	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (status != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(status) ? status : EFI_DEVICE_ERROR;
	*data = app_alloc(*size ? *size : 1);
	if (!*data)
		return EFI_OUT_OF_RESOURCES;
	status = app_rt->GetVariable((CHAR16 *)name, (EFI_GUID *)guid, NULL, size, *data);
	if (EFI_ERROR(status)) {
		app_free(*data);
		*data = NULL;
		*size = 0;
	}
	return status;
}

EFI_STATUS sb_key_read(enum sb_key key, UINT8 **data, UINTN *size)
{
	if (key >= SB_KEYS)
		return EFI_INVALID_PARAMETER;
	return read_variable(key_names[key], key_guid(key), data, size);
}

/* sb_key_read before a change to the key: a failure to read says why. */
static EFI_STATUS read_for_change(enum sb_key key, UINT8 **data, UINTN *size, const char **why)
{
	EFI_STATUS status;

	if (key >= SB_KEYS)
		return EFI_INVALID_PARAMETER;
	status = read_variable(key_names[key], key_guid(key), data, size);
	return EFI_ERROR(status) ? refuse(why, "the key could not be read", status) : status;
}

EFI_STATUS sb_delete_key(enum sb_key key, const char **why)
{
	UINT8 *data;
	UINTN size;
	EFI_STATUS status = read_for_change(key, &data, &size, why);

	if (EFI_ERROR(status))
		return status;
	app_free(data);
	if (!size)
		return EFI_SUCCESS; /* nothing to delete */
	return owner_write(key, NULL, 0, false, why);
}

EFI_STATUS sb_delete_entry(enum sb_key key, UINT32 index, const char **why)
{
	UINT8 *data;
	UINTN size, left;
	EFI_STATUS status = read_for_change(key, &data, &size, why);

	if (EFI_ERROR(status))
		return status;
	left = sb_siglist_remove(data, size, index);
	if (left == size)
		status = refuse(why, "there is no such entry", EFI_NOT_FOUND);
	else
		status = owner_write(key, left ? data : NULL, left, false, why);
	app_free(data);
	return status;
}

EFI_STATUS sb_setup_mode(const char **why)
{
	return sb_delete_key(SB_PK, why);
}

/* One database replaced by its default, or deleted when the firmware has none. */
static EFI_STATUS restore_one(enum sb_key key, const char **why)
{
	UINT8 *data;
	UINTN size;
	EFI_STATUS status =
	    read_variable(default_names[key], &efi_global_variable_guid, &data, &size);

	if (EFI_ERROR(status))
		return refuse(why, "a default key could not be read", status);
	status = size ? owner_write(key, data, size, false, why) : sb_delete_key(key, why);
	app_free(data);
	return status;
}

EFI_STATUS sb_restore_defaults(const char **why)
{
	static const enum sb_key order[] = {SB_DBX, SB_DB, SB_KEK, SB_PK};
	struct sb_state state;
	EFI_STATUS status = sb_state_read(&state);

	if (EFI_ERROR(status))
		return refuse(why, "the Secure Boot state could not be read", status);
	if (!state.defaults)
		return refuse(why, "this firmware has no default keys", EFI_NOT_FOUND);
	for (UINTN i = 0; i < ARRAY_SIZE(order) && !EFI_ERROR(status); i++)
		status = restore_one(order[i], why);
	return status;
}

static INT8 mode_byte(const CHAR16 *name)
{
	UINT8 value;
	UINTN size = sizeof(value);

	if (EFI_ERROR(app_rt->GetVariable((CHAR16 *)name, (EFI_GUID *)&efi_global_variable_guid,
					  NULL, &size, &value)) ||
	    size != 1)
		return -1;
	return (INT8)value;
}

EFI_STATUS sb_state_read(struct sb_state *s)
{
	EMBER_VARIABLE_OWNER_PROTOCOL *o = owner();
	EFI_STATUS status = EFI_SUCCESS;
	UINT8 *data;
	UINTN size;

	s->secure_boot = mode_byte(u"SecureBoot");
	s->setup_mode = mode_byte(u"SetupMode");
	s->audit_mode = mode_byte(u"AuditMode");
	s->deployed_mode = mode_byte(u"DeployedMode");
	for (UINTN k = 0; k < SB_KEYS && !EFI_ERROR(status); k++) {
		status = sb_key_read((enum sb_key)k, &data, &size);
		s->entries[k] = EFI_ERROR(status) ? 0 : sb_siglist_count(data, size);
		app_free(data);
	}
	s->defaults = false;
	for (UINTN k = 0; k < SB_KEYS && !s->defaults; k++) {
		size = 0;
		s->defaults = app_rt->GetVariable((CHAR16 *)default_names[k],
						  (EFI_GUID *)&efi_global_variable_guid, NULL,
						  &size, NULL) == EFI_BUFFER_TOO_SMALL;
	}
	s->owner = o && !EFI_ERROR(o->Usable(o));
	return status;
}
