/* setup-backends-test: drives the setup screen's Secure Boot and settings backends
 * (apps/setup/sb_keys.c, settings_*.c, linked in by the Makefile) without the forms, one
 * command after another from its command line, printing one line per step for
 * tests/integration/test_setup_backends.py:
 *   state                    the Secure Boot state
 *   enroll KEY FILE          KEY: PK KEK db dbx; FILE on the first volume that has it
 *   delete KEY | delete-entry KEY N | defaults | setup-mode
 *   try-owner                as any program: find the owner protocol and write db with it
 *   child FILE               start FILE (this program, from a volume) as an ordinary
 *                            program with "try-owner"
 *   resolution WxH | resolution default | gop   the setting, and the GOP's mode now
 *   baud N | time Y M D h m s | gettime | sysinfo */
#include "../lib/app.h"
#include "../lib/devpath.h"
#include "../setup/sb.h"
#include "../setup/settings.h"
#include <efi/image_authentication.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/loaded_image.h>
#include <ember/core/variable_owner.h>
#include <ember/lib/guids.h>

#define WORDS 48
#define LINE 1024

static char line[LINE];
static char *words[WORDS];
static UINTN word_count, at;

static void split(void)
{
	char *p = line;

	app_command_line(line, sizeof(line));
	while (*p && word_count < WORDS) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		words[word_count++] = p;
		while (*p && *p != ' ')
			p++;
	}
}

static const char *next(void)
{
	return at < word_count ? words[at++] : "";
}

static UINT64 number(void)
{
	const char *w = next();
	UINT64 n = 0;

	while (*w >= '0' && *w <= '9')
		n = n * 10 + (UINT64)(*w++ - '0');
	return n;
}

static bool key_of(const char *name, enum sb_key *key)
{
	static const char *const names[SB_KEYS] = {"PK", "KEK", "db", "dbx"};

	for (UINTN k = 0; k < SB_KEYS; k++)
		if (!str8_cmp(name, names[k])) {
			*key = (enum sb_key)k;
			return true;
		}
	return false;
}

static void path_of(const char *name, CHAR16 *path, UINTN units)
{
	UINTN i = 0;

	path[i++] = u'\\';
	for (; *name && i + 1 < units; name++)
		path[i++] = *name == '/' ? u'\\' : (CHAR16)*name;
	path[i] = 0;
}

/* The first volume holding path. */
static EFI_HANDLE volume_with(const CHAR16 *path)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *root, *f;
	EFI_HANDLE *handles, found = NULL;
	UINTN count;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol,
						 (EFI_GUID *)&efi_simple_file_system_protocol_guid,
						 NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		if (EFI_ERROR(app_bs->HandleProtocol(
			handles[i], (EFI_GUID *)&efi_simple_file_system_protocol_guid,
			(void **)&fs)) ||
		    EFI_ERROR(fs->OpenVolume(fs, &root)))
			continue;
		if (!EFI_ERROR(root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0))) {
			f->Close(f);
			found = handles[i];
		}
		root->Close(root);
	}
	app_free(handles);
	return found;
}

static void state(void)
{
	struct sb_state s;
	EFI_STATUS status = sb_state_read(&s);

	app_print("state: %r secure_boot=%d setup_mode=%d audit=%d deployed=%d PK=%u KEK=%u "
		  "db=%u dbx=%u defaults=%d owner=%d\n",
		  status, s.secure_boot, s.setup_mode, s.audit_mode, s.deployed_mode,
		  s.entries[SB_PK], s.entries[SB_KEK], s.entries[SB_DB], s.entries[SB_DBX],
		  s.defaults, s.owner);
}

static void enroll(void)
{
	const char *name = next(), *file = next(), *why = "";
	CHAR16 path[128];
	enum sb_key key;
	EFI_HANDLE volume;
	EFI_STATUS status = EFI_INVALID_PARAMETER;

	path_of(file, path, ARRAY_SIZE(path));
	volume = volume_with(path);
	if (!volume)
		why = "no volume has the file";
	else if (key_of(name, &key))
		status = sb_enroll_file(key, volume, path, &why);
	app_print("enroll %s %s: %r %s\n", name, file, status, why);
}

static void delete_key(bool one)
{
	const char *name = next(), *why = "";
	UINT32 index = one ? (UINT32)number() : 0;
	enum sb_key key;
	EFI_STATUS status = EFI_INVALID_PARAMETER;

	if (key_of(name, &key))
		status = one ? sb_delete_entry(key, index, &why) : sb_delete_key(key, &why);
	app_print("delete %s: %r %s\n", name, status, why);
}

static void try_owner(void)
{
	/* A well-formed list of one SHA-256 entry. */
	static UINT8 esl[sizeof(EFI_SIGNATURE_LIST) + 16 + 32];
	EFI_SIGNATURE_LIST l = {efi_cert_sha256_guid, sizeof(esl), 0, 48};
	EMBER_VARIABLE_OWNER_PROTOCOL *o;
	EFI_STATUS status = app_bs->LocateProtocol((EFI_GUID *)&ember_variable_owner_protocol_guid,
						   NULL, (void **)&o);

	mem_copy(esl, &l, sizeof(l));
	if (EFI_ERROR(status)) {
		app_print("try-owner: locate %r\n", status);
		return;
	}
	status = o->SetKey(o, u"db", &efi_image_security_database_guid,
			   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
			       EFI_VARIABLE_RUNTIME_ACCESS |
			       EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS,
			   sizeof(esl), esl);
	app_print("try-owner: SetKey %r\n", status);
}

static void child(void)
{
	static const CHAR16 options[] = u"setup-backends-test.efi try-owner";
	const char *file = next();
	CHAR16 path[128];
	EFI_HANDLE volume, image;
	EFI_DEVICE_PATH_PROTOCOL *dp;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_STATUS status = EFI_NOT_FOUND;

	path_of(file, path, ARRAY_SIZE(path));
	volume = volume_with(path);
	if (volume && !EFI_ERROR(app_bs->HandleProtocol(
			  volume, (EFI_GUID *)&efi_device_path_protocol_guid, (void **)&dp))) {
		EFI_DEVICE_PATH_PROTOCOL *node = dp_file_path(path);
		EFI_DEVICE_PATH_PROTOCOL *full = node ? dp_append(dp, node) : NULL;
		status = full ? app_bs->LoadImage(FALSE, app_image, full, NULL, 0, &image)
			      : EFI_OUT_OF_RESOURCES;
		app_free(node);
		app_free(full);
	}
	if (!EFI_ERROR(status) &&
	    !EFI_ERROR(app_bs->HandleProtocol(image, (EFI_GUID *)&efi_loaded_image_protocol_guid,
					      (void **)&li))) {
		li->LoadOptions = (void *)options;
		li->LoadOptionsSize = sizeof(options);
		status = app_bs->StartImage(image, NULL, NULL);
	}
	app_print("child: %r\n", status);
}

static void gop(void)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g;
	struct settings_mode want;

	if (EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_graphics_output_protocol_guid, NULL,
					     (void **)&g)))
		app_print("gop: none\n");
	else
		app_print("gop: mode %u %ux%u\n", g->Mode->Mode,
			  g->Mode->Info->HorizontalResolution, g->Mode->Info->VerticalResolution);
	if (settings_resolution_get(&want))
		app_print("gop: setting %ux%u\n", want.width, want.height);
}

static void resolution(void)
{
	const char *w = next();
	struct settings_mode mode = {0, 0};
	EFI_STATUS status;

	for (; *w >= '0' && *w <= '9'; w++)
		mode.width = mode.width * 10 + (UINT32)(*w - '0');
	if (*w == 'x')
		for (w++; *w >= '0' && *w <= '9'; w++)
			mode.height = mode.height * 10 + (UINT32)(*w - '0');
	status = settings_resolution_set(&mode);
	app_print("resolution %ux%u: %r\n", mode.width, mode.height, status);
}

static void set_time(void)
{
	UINT16 y = (UINT16)number();
	UINT8 mo = (UINT8)number(), d = (UINT8)number(), h = (UINT8)number(), mi = (UINT8)number(),
	      s = (UINT8)number();

	app_print("time: %r\n", settings_time_set(y, mo, d, h, mi, s));
}

static void get_time(void)
{
	EFI_TIME t;
	EFI_STATUS status = settings_time_get(&t);

	app_print("gettime: %r %04u-%02u-%02u %02u:%02u\n", status, t.Year, t.Month, t.Day, t.Hour,
		  t.Minute);
}

static void pci(void *ctx, UINTN segment, UINTN bus, UINTN device, UINTN function, UINT16 vendor,
		UINT16 device_id)
{
	app_print("sysinfo: pci %02x:%02x.%x %04x:%04x\n", (unsigned)bus, (unsigned)device,
		  (unsigned)function, vendor, device_id);
}

static void sysinfo(void)
{
	struct settings_sysinfo i;
	EFI_STATUS status = settings_sysinfo_read(&i);

	app_print("sysinfo: %r vendor=%ls revision=0x%x uefi=0x%x memory_mib=%llu cpus=%u/%u "
		  "pci=%u paths=%u\n",
		  status, i.vendor, i.revision, i.uefi_revision,
		  (unsigned long long)(i.memory_bytes >> 20), (unsigned)i.cpus,
		  (unsigned)i.cpus_enabled, (unsigned)i.pci_devices, (unsigned)i.device_paths);
	settings_pci_each(pci, NULL);
}

/* "defaults" and "setup-mode": the status, then why (set by the call). */
static void keys_wide(const char *c, EFI_STATUS (*fn)(const char **why))
{
	const char *why = "";
	EFI_STATUS status = fn(&why);

	app_print("%s: %r %s\n", c, status, why);
}

static void command(const char *c)
{

	if (!str8_cmp(c, "state"))
		state();
	else if (!str8_cmp(c, "enroll"))
		enroll();
	else if (!str8_cmp(c, "delete"))
		delete_key(false);
	else if (!str8_cmp(c, "delete-entry"))
		delete_key(true);
	else if (!str8_cmp(c, "defaults"))
		keys_wide(c, sb_restore_defaults);
	else if (!str8_cmp(c, "setup-mode"))
		keys_wide(c, sb_setup_mode);
	else if (!str8_cmp(c, "try-owner"))
		try_owner();
	else if (!str8_cmp(c, "child"))
		child();
	else if (!str8_cmp(c, "resolution"))
		resolution();
	else if (!str8_cmp(c, "gop"))
		gop();
	else if (!str8_cmp(c, "baud"))
		app_print("baud: %r\n", settings_serial_set_baud((UINT32)number()));
	else if (!str8_cmp(c, "time"))
		set_time();
	else if (!str8_cmp(c, "gettime"))
		get_time();
	else if (!str8_cmp(c, "sysinfo"))
		sysinfo();
	else
		app_print("unknown command %s\n", c);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	split();
	at = 1; /* the program's own name */
	while (at < word_count)
		command(next());
	app_print("setup-backends-test: done\n");
	return EFI_SUCCESS;
}
