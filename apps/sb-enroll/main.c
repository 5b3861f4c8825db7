/* sb-enroll: enrolls Secure Boot keys the standard way, by SetVariable with the signed
 * updates (.auth files made by efitools' sign-efi-sig-list) found in the root directory of
 * the volume it was loaded from, and checks what the firmware answers (UEFI 2.10 8.2.6,
 * 32.3): in Setup Mode PK, then KEK, db, a db append and dbx; replayed, wrongly signed and
 * unauthenticated writes refused; SetupMode and SecureBoot before and after; PK deletion
 * back to Setup Mode. Prints a summary and powers off (run-ovmf's convention).
 *
 * Files: PK.auth, PK.esl, KEK.auth, KEK-bykek.auth (KEK signed by the KEK key, not PK),
 * db.auth, db.esl, db-append.auth (db2.esl, APPEND_WRITE), db2.esl, db-wrong.auth (signed
 * by a key nobody enrolled), dbx.auth, dbx.esl, noPK.auth (an empty PK signed by PK); and
 * for the private variable SbPrivate: priv1.auth ("one"), priv-other.auth ("two" by
 * another signer), priv2.auth ("two"), priv-del.auth (empty), all by the first signer but
 * priv-other. */
#include "../lib/check.h"
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_file_system.h>

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NBRA (NBR | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)
#define APPEND EFI_VARIABLE_APPEND_WRITE
#define FILE_MAX 0x4000

static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;
static EFI_GUID db_guid = {
    0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}};
/* tests/integration/sb_keys.py's OWNER: the private variable's vendor GUID. */
static EFI_GUID private_guid = {0x7e57a11e, 0x5ec0, 0x4b00, {0x8a, 0x1e, 0, 0, 0, 0, 0, 1}};
static EFI_FILE_PROTOCOL *root;

/* A file: its bytes and size (size 0: missing). */
struct blob {
	UINT8 data[FILE_MAX];
	UINTN size;
};

/* The root directory of the volume on handle, when it holds PK.auth. */
static EFI_FILE_PROTOCOL *root_with_keys(EFI_HANDLE handle)
{
	EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *dir, *f;

	if (EFI_ERROR(app_bs->HandleProtocol(handle, &fs_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &dir)))
		return NULL;
	if (EFI_ERROR(dir->Open(dir, &f, u"\\PK.auth", EFI_FILE_MODE_READ, 0))) {
		dir->Close(dir);
		return NULL;
	}
	f->Close(f);
	return dir;
}

/* The volume this program was loaded from, else (loaded from elsewhere, as QEMU's
 * fw_cfg) the first volume holding the files. */
static EFI_FILE_PROTOCOL *open_root(void)
{
	EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID,
		 fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_FILE_PROTOCOL *dir = NULL;
	EFI_HANDLE *handles;
	UINTN count;

	if (!EFI_ERROR(app_bs->HandleProtocol(app_image, &li_guid, (void **)&li)) &&
	    (dir = root_with_keys(li->DeviceHandle)))
		return dir;
	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &fs_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !dir; i++)
		dir = root_with_keys(handles[i]);
	app_bs->FreePool(handles);
	return dir;
}

/* Reads \name from the volume; fails the check when it is missing. */
static bool load(const char *name, struct blob *b)
{
	CHAR16 path[64];
	EFI_FILE_PROTOCOL *f;
	UINTN i = 0;

	path[i++] = u'\\';
	for (; *name && i < 62; name++)
		path[i++] = (CHAR16)*name;
	path[i] = 0;
	b->size = 0;
	if (!root || EFI_ERROR(root->Open(root, &f, path, EFI_FILE_MODE_READ, 0))) {
		CHECK_FAIL("cannot open %ls", path);
		return false;
	}
	b->size = sizeof(b->data);
	if (EFI_ERROR(f->Read(f, &b->size, b->data)) || b->size == sizeof(b->data)) {
		CHECK_FAIL("cannot read %ls", path);
		b->size = 0;
	}
	f->Close(f);
	return b->size != 0;
}

static EFI_STATUS set(const CHAR16 *name, EFI_GUID *guid, UINT32 attributes, const char *file)
{
	static struct blob b;

	if (!load(file, &b))
		return EFI_NOT_FOUND;
	return app_rt->SetVariable((CHAR16 *)name, guid, attributes, b.size, b.data);
}

static UINT8 mode(const CHAR16 *name)
{
	UINT8 value = 0xee;
	UINTN size = 1;

	if (EFI_ERROR(app_rt->GetVariable((CHAR16 *)name, &global_guid, NULL, &size, &value)))
		return 0xff;
	return value;
}

/* Whether the variable holds exactly the concatenation of the files (attributes NBRA). */
static bool holds(const CHAR16 *name, EFI_GUID *guid, const char *file1, const char *file2)
{
	static struct blob a, b;
	static UINT8 value[2 * FILE_MAX];
	UINTN size = sizeof(value);
	UINT32 attributes = 0;

	if (!load(file1, &a) || (file2 && !load(file2, &b)))
		return false;
	if (!file2)
		b.size = 0;
	if (EFI_ERROR(app_rt->GetVariable((CHAR16 *)name, guid, &attributes, &size, value)))
		return false;
	app_print("sb-enroll: %ls: %u bytes, attributes 0x%x\n", name, (UINT32)size, attributes);
	return attributes == NBRA && size == a.size + b.size && !mem_cmp(value, a.data, a.size) &&
	       !mem_cmp(value + a.size, b.data, b.size);
}

static void enroll(void)
{
	CHECK_EQ(mode(u"SetupMode"), 1);
	CHECK_EQ(mode(u"SecureBoot"), 0);
	/* Unauthenticated writes of the policy variables. */
	CHECK_STATUS(set(u"db", &db_guid, NBR, "db.esl"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(set(u"PK", &global_guid, NBR, "PK.esl"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(set(u"PK", &global_guid, NBRA, "PK.esl"), EFI_SECURITY_VIOLATION);
	/* PK enrolment, self-signed, moves to User Mode. */
	CHECK_STATUS(set(u"PK", &global_guid, NBRA, "PK.auth"), EFI_SUCCESS);
	CHECK(holds(u"PK", &global_guid, "PK.esl", NULL));
	CHECK_EQ(mode(u"SetupMode"), 0);
	CHECK_EQ(mode(u"SecureBoot"), 1);
	CHECK_STATUS(set(u"KEK", &global_guid, NBRA, "KEK-bykek.auth"), EFI_SECURITY_VIOLATION);
	CHECK_STATUS(set(u"KEK", &global_guid, NBRA, "KEK.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"KEK", &global_guid, NBRA, "KEK.auth"), EFI_SECURITY_VIOLATION);
	CHECK_STATUS(set(u"db", &db_guid, NBRA, "db.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"db", &db_guid, NBRA, "db.auth"), EFI_SECURITY_VIOLATION);
	CHECK_STATUS(set(u"db", &db_guid, NBRA, "db-wrong.auth"), EFI_SECURITY_VIOLATION);
	CHECK_STATUS(set(u"db", &db_guid, NBRA | APPEND, "db-append.auth"), EFI_SUCCESS);
	CHECK(holds(u"db", &db_guid, "db.esl", "db2.esl"));
	/* The same append again adds nothing (8.2.6). */
	CHECK_STATUS(set(u"db", &db_guid, NBRA | APPEND, "db-append.auth"), EFI_SUCCESS);
	CHECK(holds(u"db", &db_guid, "db.esl", "db2.esl"));
	CHECK_STATUS(set(u"db", &db_guid, NBR, "db.esl"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->SetVariable(u"db", &db_guid, 0, 0, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(set(u"dbx", &db_guid, NBRA, "dbx.auth"), EFI_SUCCESS);
	CHECK(holds(u"dbx", &db_guid, "dbx.esl", NULL));
	CHECK(holds(u"KEK", &global_guid, "KEK.esl", NULL));
	/* PK deletion: back to Setup Mode. */
	CHECK_STATUS(set(u"PK", &global_guid, NBRA, "noPK.auth"), EFI_SUCCESS);
	CHECK_EQ(mode(u"SetupMode"), 1);
	CHECK_EQ(mode(u"SecureBoot"), 0);
}

/* A private authenticated variable belongs to its first signer (8.2.6). */
static void private_variable(void)
{
	UINT8 value[8];
	UINTN size = sizeof(value);
	UINT32 attributes = 0;

	CHECK_STATUS(set(u"SbPrivate", &private_guid, NBRA, "priv1.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"SbPrivate", &private_guid, NBRA, "priv-other.auth"),
		     EFI_SECURITY_VIOLATION);
	CHECK_STATUS(set(u"SbPrivate", &private_guid, NBRA, "priv1.auth"), EFI_SECURITY_VIOLATION);
	CHECK_STATUS(app_rt->SetVariable(u"SbPrivate", &private_guid, NBR, 3, "xyz"),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->SetVariable(u"SbPrivate", &private_guid, 0, 0, NULL),
		     EFI_WRITE_PROTECTED);
	CHECK_STATUS(set(u"SbPrivate", &private_guid, NBRA, "priv2.auth"), EFI_SUCCESS);
	CHECK_STATUS(app_rt->GetVariable(u"SbPrivate", &private_guid, &attributes, &size, value),
		     EFI_SUCCESS);
	CHECK(attributes == NBRA && size == 3 && !mem_cmp(value, "two", 3));
	CHECK_STATUS(set(u"SbPrivate", &private_guid, NBRA, "priv-del.auth"), EFI_SUCCESS);
	size = sizeof(value);
	CHECK_STATUS(app_rt->GetVariable(u"SbPrivate", &private_guid, NULL, &size, value),
		     EFI_NOT_FOUND);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	app_print("sb-enroll: firmware %ls\n", st->FirmwareVendor);
	root = open_root();
	enroll();
	private_variable();
	check_print_summary("sb-enroll");
	app_rt->ResetSystem(EfiResetShutdown, check_totals.failed ? EFI_ABORTED : EFI_SUCCESS, 0,
			    NULL);
	return EFI_ABORTED;
}
