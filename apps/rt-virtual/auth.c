/* rt-virtual's authenticated writes (UEFI 2.10 8.2.6, 32.3): keys enrolled by SetVariable
 * at boot, then updates made in virtual mode, where the firmware's signature check runs
 * with its static tables' pointers converted by SetVirtualAddressMap. The .auth files are
 * tests/integration/sb_keys.py's (efitools' sign-efi-sig-list), read before
 * ExitBootServices into the application's own memory, which stays mapped 1:1. */
#include "rt_virtual.h"
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/str.h>

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NBRA (NBR | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)
#define FILE_MAX 0x4000
#define STACK_PAINT (64 * 1024) /* below the stack pointer: the firmware's stack has 1 MiB */
#define STACK_MARGIN 512
#define PAINT 0xa5

struct blob {
	UINT8 data[FILE_MAX];
	UINTN size;
};

/* The files: enrolled at boot, then used in virtual mode. */
enum {
	PK_AUTH,
	KEK_AUTH,
	DB_AUTH,
	PRIV1,
	DB_ESL,
	DB2_ESL,
	DB_APPEND,
	DB_WRONG,
	PRIV_OTHER,
	PRIV2,
	DBX_AUTH,
	DBX_ESL,
	FILES
};
static const CHAR16 *const file_names[FILES] = {
    u"\\PK.auth",	  u"\\KEK.auth",   u"\\db.auth",	u"\\priv1.auth",
    u"\\db.esl",	  u"\\db2.esl",	   u"\\db-append.auth", u"\\db-wrong.auth",
    u"\\priv-other.auth", u"\\priv2.auth", u"\\dbx.auth",	u"\\dbx.esl"};
static struct blob files[FILES];
static UINT8 value[2 * FILE_MAX];
static unsigned passed, failed; /* this part's own count, for firmwares that fail others */

static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;
static EFI_GUID db_guid = {
    0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}};
/* tests/integration/sb_keys.py's OWNER: the private variable's vendor GUID. */
static EFI_GUID private_guid = {0x7e57a11e, 0x5ec0, 0x4b00, {0x8a, 0x1e, 0, 0, 0, 0, 0, 1}};

static void auth_check(bool ok, const char *what)
{
	rtv_check(ok, what);
	*(ok ? &passed : &failed) += 1;
}

static bool read_file(EFI_FILE_PROTOCOL *dir, const CHAR16 *name, struct blob *b)
{
	EFI_FILE_PROTOCOL *f;
	bool ok;

	if (EFI_ERROR(dir->Open(dir, &f, (CHAR16 *)name, EFI_FILE_MODE_READ, 0)))
		return false;
	b->size = sizeof(b->data);
	ok = !EFI_ERROR(f->Read(f, &b->size, b->data)) && b->size && b->size < sizeof(b->data);
	f->Close(f);
	return ok;
}

/* Reads every file from the volume on handle; false when one is missing. */
static bool read_files(EFI_HANDLE handle)
{
	EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *dir;
	bool ok = true;

	if (EFI_ERROR(app_bs->HandleProtocol(handle, &fs_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &dir)))
		return false;
	for (UINTN i = 0; i < FILES && ok; i++)
		ok = read_file(dir, file_names[i], &files[i]);
	dir->Close(dir);
	return ok;
}

/* The first volume that holds the files (the application itself comes from fw_cfg on
 * Ember, from the same disk on OVMF). */
static bool find_files(void)
{
	EFI_GUID fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_HANDLE *handles;
	UINTN count;
	bool found = false;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &fs_guid, NULL, &count, &handles)))
		return false;
	for (UINTN i = 0; i < count && !found; i++)
		found = read_files(handles[i]);
	app_bs->FreePool(handles);
	return found;
}

static EFI_STATUS set(EFI_RUNTIME_SERVICES *rt, const CHAR16 *name, EFI_GUID *guid,
		      UINT32 attributes, unsigned file)
{
	return rt->SetVariable((CHAR16 *)name, guid, attributes, files[file].size,
			       files[file].data);
}

/* Whether db holds exactly db.esl followed by what the files after it add. */
static bool db_holds(EFI_RUNTIME_SERVICES *rt, bool appended)
{
	UINTN size = sizeof(value), first = files[DB_ESL].size;
	UINT32 attributes = 0;

	if (rt->GetVariable(u"db", &db_guid, &attributes, &size, value) != EFI_SUCCESS)
		return false;
	if (attributes != NBRA || size != first + (appended ? files[DB2_ESL].size : 0) ||
	    mem_cmp(value, files[DB_ESL].data, first))
		return false;
	return !appended || !mem_cmp(value + first, files[DB2_ESL].data, files[DB2_ESL].size);
}

static bool dbx_holds(EFI_RUNTIME_SERVICES *rt)
{
	UINTN size = sizeof(value);
	UINT32 attributes = 0;

	return rt->GetVariable(u"dbx", &db_guid, &attributes, &size, value) == EFI_SUCCESS &&
	       attributes == NBRA && size == files[DBX_ESL].size &&
	       !mem_cmp(value, files[DBX_ESL].data, size);
}

static bool private_holds(EFI_RUNTIME_SERVICES *rt, const char *text)
{
	UINTN size = sizeof(value);
	UINT32 attributes = 0;

	return rt->GetVariable(u"SbPrivate", &private_guid, &attributes, &size, value) ==
		   EFI_SUCCESS &&
	       attributes == NBRA && size == str8_len(text) && !mem_cmp(value, text, size);
}

bool rtv_auth_prepare(void)
{
	EFI_RUNTIME_SERVICES *rt = app_st->RuntimeServices;

	if (!find_files())
		return false;
	/* Setup Mode: PK self-signed; then KEK signed by PK, db by KEK. */
	auth_check(set(rt, u"PK", &global_guid, NBRA, PK_AUTH) == EFI_SUCCESS, "enrol PK");
	auth_check(set(rt, u"KEK", &global_guid, NBRA, KEK_AUTH) == EFI_SUCCESS, "enrol KEK");
	auth_check(set(rt, u"db", &db_guid, NBRA, DB_AUTH) == EFI_SUCCESS, "enrol db");
	auth_check(db_holds(rt, false), "db holds db.esl");
	auth_check(set(rt, u"SbPrivate", &private_guid, NBRA, PRIV1) == EFI_SUCCESS,
		   "create the private variable");
	return true;
}

/* Fills the stack below the caller's with a pattern (without a call: it would use that
 * stack); returns where the caller's frame ends. */
static __attribute__((noinline)) UINT8 *paint_stack(void)
{
	volatile UINT8 *sp = __builtin_frame_address(0);

	for (UINTN i = STACK_MARGIN; i < STACK_PAINT; i++)
		sp[-(INTN)i] = PAINT;
	return (UINT8 *)sp;
}

/* How deep below sp the stack was used since paint_stack. */
static UINTN stack_used(const UINT8 *sp)
{
	UINTN depth = STACK_PAINT - 1;

	while (depth > STACK_MARGIN && sp[-(INTN)depth] == PAINT)
		depth--;
	return depth;
}

void rtv_auth_check(EFI_RUNTIME_SERVICES *rt)
{
	UINT8 *sp = paint_stack();
	EFI_STATUS status;

	status = set(rt, u"db", &db_guid, NBRA | EFI_VARIABLE_APPEND_WRITE, DB_APPEND);
	/* What the signature check needs of the OS's stack (Linux gives runtime calls a
	 * kernel thread's, 16 KiB). */
	app_print("rt-virtual: the db append used %u bytes of stack\n", (unsigned)stack_used(sp));
	auth_check(status == EFI_SUCCESS, "a db append signed by the KEK");
	app_print("rt-virtual: db append in virtual mode: %r\n", status);
	auth_check(db_holds(rt, true), "db holds db.esl and the appended db2.esl");
	status = set(rt, u"db", &db_guid, NBRA, DB_WRONG);
	auth_check(status == EFI_SECURITY_VIOLATION, "a db update signed by an unknown key");
	app_print("rt-virtual: wrongly signed db update in virtual mode: %r\n", status);
	auth_check(db_holds(rt, true), "db unchanged by the refused update");
	/* A dbx update (a SHA-256 signature list), as fwupd and efivarfs write them. */
	auth_check(set(rt, u"dbx", &db_guid, NBRA, DBX_AUTH) == EFI_SUCCESS,
		   "a dbx update signed by the KEK");
	auth_check(dbx_holds(rt), "dbx holds the update");
	auth_check(set(rt, u"SbPrivate", &private_guid, NBRA, PRIV_OTHER) == EFI_SECURITY_VIOLATION,
		   "a private variable's update by another signer");
	auth_check(set(rt, u"SbPrivate", &private_guid, NBRA, PRIV2) == EFI_SUCCESS,
		   "a private variable's update by its signer");
	auth_check(private_holds(rt, "two"), "the private variable holds the update");
	app_print("rt-virtual: authenticated writes: %u passed, %u failed\n", passed, failed);
}
