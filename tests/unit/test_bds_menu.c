/* The boot menu (bds/menu.c) and the console variables (bds/consoles.c): the menu opens
 * for Esc/F2/F12 at start or when the OS asked (OsIndications BOOT_TO_FW_UI, cleared
 * after), arrows move, Enter boots, Esc leaves; keys that opened it do not act in it.
 * ConIn/ConOut/ErrOut and their *Dev variables name the console devices, and are written
 * only when they change. */
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <efi/image_authentication.h>
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define GAP 0xffff /* a script entry: "no key now" (EFI_NOT_READY) once */

static const EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;

/* A console: keys from a script, output kept as text. */
static struct {
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL in;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL out;
	const EFI_INPUT_KEY *keys;
	UINTN key_count, next_key;
	char text[4096];
	UINTN text_len, clears;
} con;

static EFI_STATUS EFIAPI read_key(EFI_SIMPLE_TEXT_INPUT_PROTOCOL *this, EFI_INPUT_KEY *key)
{
	if (con.next_key >= con.key_count)
		return EFI_NOT_READY;
	*key = con.keys[con.next_key++];
	return key->ScanCode == GAP ? EFI_NOT_READY : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI output(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *s)
{
	for (; *s && con.text_len + 1 < sizeof(con.text); s++)
		con.text[con.text_len++] = (char)*s;
	con.text[con.text_len] = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI clear(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	con.clears++;
	return EFI_SUCCESS;
}

static void console_use(const EFI_INPUT_KEY *keys, UINTN count)
{
	con.in.ReadKeyStroke = read_key;
	con.out.OutputString = output;
	con.out.ClearScreen = clear;
	con.keys = keys;
	con.key_count = count;
	core_st->ConIn = &con.in;
	core_st->ConOut = &con.out;
}

static void two_options(void)
{
	static const struct bds_file one[] = {{"/ONE.EFI", 1}, {"/TWO.EFI", 2}};
	static const UINT16 order[] = {1, 2};
	EFI_DEVICE_PATH_PROTOCOL *disk, *p;

	bds_world_start();
	bds_disk_add(one, 2, &disk);
	p = bds_file_path(disk, "/ONE.EFI");
	bds_option_put(u"Boot", 1, LOAD_OPTION_ACTIVE, u"first one", p, NULL, 0);
	pool_free(p);
	p = bds_file_path(disk, "/TWO.EFI");
	bds_option_put(u"Boot", 2, LOAD_OPTION_ACTIVE, u"second one", p, NULL, 0);
	pool_free(p);
	bds_order_put(u"BootOrder", order, 2);
}

/* The OS asked for the firmware's interface: the menu opens without a key, Down then
 * Enter boots the second option first; the request is used once. */
static void os_indications(void)
{
	static const EFI_INPUT_KEY keys[] = {{GAP, 0},	     {SCAN_UP, 0},
					     {SCAN_DOWN, 0}, {SCAN_DOWN, 0},
					     {0, 'x'},	     {0, CHAR_CARRIAGE_RETURN}};
	UINT64 indications = 1; /* EFI_OS_INDICATIONS_BOOT_TO_FW_UI */
	UINTN size = sizeof(indications);
	struct bds_platform platform = {0};

	two_options();
	console_use(keys, ARRAY_SIZE(keys));
	ASSERT_STATUS(variable_set(u"OsIndications", &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   size, &indications),
		      EFI_SUCCESS);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "2,1,2"));
	EXPECT(strstr(con.text, "Ember boot menu"));
	EXPECT(strstr(con.text, " > Boot0002  second one"));
	EXPECT(strstr(con.text, "   Boot0001  first one"));
	ASSERT_STATUS(variable_get(u"OsIndications", &global_guid, NULL, &size, &indications),
		      EFI_SUCCESS);
	EXPECT_EQ(indications & 1, 0);
}

TEST(bds_menu_when_the_os_asks)
{
	RUN_ISOLATED(os_indications);
}

int bds_menu(void); /* bds/bds.h */

/* The menu says whether Secure Boot is on: off in Setup Mode, on once a PK is enrolled
 * (here as the firmware writes its own keys, an EFI_SIGNATURE_LIST of one X509 entry). */
static void secure_boot_state(void)
{
	static const EFI_INPUT_KEY keys[] = {{GAP, 0}, {SCAN_ESC, 0}};
	static const EFI_GUID x509 = EFI_CERT_X509_GUID;
	UINT8 esl[sizeof(EFI_SIGNATURE_LIST) + 16 + 4] = {0};
	EFI_SIGNATURE_LIST l = {x509, sizeof(esl), 0, 16 + 4};

	two_options();
	console_use(keys, ARRAY_SIZE(keys));
	ASSERT_EQ(bds_menu(), -1);
	EXPECT(strstr(con.text, "Secure Boot: disabled (setup mode)"));
	memcpy(esl, &l, sizeof(l));
	memcpy(esl + sizeof(l) + 16, "\x30\x02\x05\x00", 4);
	ASSERT_STATUS(variable_set_firmware(u"PK", &global_guid,
					    EFI_VARIABLE_NON_VOLATILE |
						EFI_VARIABLE_BOOTSERVICE_ACCESS |
						EFI_VARIABLE_RUNTIME_ACCESS |
						EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS,
					    sizeof(esl), esl),
		      EFI_SUCCESS);
	con.text_len = 0;
	con.next_key = 0;
	console_use(keys, ARRAY_SIZE(keys));
	ASSERT_EQ(bds_menu(), -1);
	EXPECT(strstr(con.text, "Secure Boot: enabled (user mode)"));
}

TEST(bds_menu_shows_the_secure_boot_state)
{
	RUN_ISOLATED(secure_boot_state);
}

/* Esc during the wait opens the menu; the Esc still held is drained, a second one
 * leaves the menu without booting from it. */
static void key_at_start(void)
{
	static const EFI_INPUT_KEY keys[] = {
	    {0, 'a'}, {SCAN_ESC, 0}, {SCAN_ESC, 0}, {GAP, 0}, {SCAN_ESC, 0}};
	struct bds_platform platform = {.menu_wait_ms = 20};

	two_options();
	console_use(keys, ARRAY_SIZE(keys));
	bds_run(&platform);
	EXPECT(strstr(con.text, "Press Esc, F2 or F12 for the boot menu."));
	EXPECT(strstr(con.text, "Ember boot menu"));
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
	EXPECT_EQ(con.clears, 2); /* on entry and on leaving */
}

TEST(bds_menu_key_at_start_and_esc)
{
	RUN_ISOLATED(key_at_start);
}

/* Without a key the menu does not open; without a console nothing waits for one. */
static void no_key(void)
{
	struct bds_platform platform = {.menu_wait_ms = 30};

	two_options();
	console_use(NULL, 0);
	bds_run(&platform);
	EXPECT(!strstr(con.text, "Ember boot menu"));
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
	core_st->ConIn = NULL;
	core_st->ConOut = NULL;
	bds_world.run_count = 0;
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
}

TEST(bds_menu_not_without_a_key)
{
	RUN_ISOLATED(no_key);
}

/* A console device: SimpleTextIn and SimpleTextOut on a handle with a VenHw() path. */
static void console_variables(void)
{
	static const EFI_GUID in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
	static const EFI_GUID out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	static const struct {
		VENDOR_DEVICE_PATH vendor;
		EFI_DEVICE_PATH_PROTOCOL end;
	} path = {{{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}},
		   EFI_GUID_INIT(0x6b1e5a1d, 0x1b4f, 0x4d2e, 0x9a, 0x41, 0x3c, 0x0e, 0x52, 0x77,
				 0x8d, 0x10)},
		  {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};
	static const CHAR16 *names[] = {u"ConIn",     u"ConInDev", u"ConOut",
					u"ConOutDev", u"ErrOut",   u"ErrOutDev"};
	struct bds_platform platform = {0};
	EFI_HANDLE handle = NULL;
	UINT8 value[64];
	UINT64 steps;

	two_options();
	console_use(NULL, 0);
	ASSERT_STATUS(protocol_install_multiple(&handle, &in_guid, &con.in, &out_guid, &con.out,
						&dp_guid, &path, NULL),
		      EFI_SUCCESS);
	bds_run(&platform);
	for (UINTN i = 0; i < ARRAY_SIZE(names); i++) {
		UINTN size = sizeof(value);
		UINT32 attributes = 0;
		EXPECT_STATUS(variable_get(names[i], &global_guid, &attributes, &size, value),
			      EFI_SUCCESS);
		EXPECT_EQ(size, sizeof(path));
		EXPECT(!memcmp(value, &path, sizeof(path)));
		/* The devices there are are volatile; the ones in use are kept. */
		EXPECT_EQ(!!(attributes & EFI_VARIABLE_NON_VOLATILE), i % 2 == 0);
	}
	steps = bds_flash_steps();
	bds_run(&platform);
	EXPECT_EQ(bds_flash_steps(), steps);
}

TEST(bds_console_variables)
{
	RUN_ISOLATED(console_variables);
}

/* The setup screen (apps/setup on the QEMU image): a program the platform makes when it is
 * needed, here program 9, made once (a second make finds none, so bds_run returns). */
static UINT8 *setup_image; /* static: reachable for LeakSanitizer at the child's exit */
static size_t setup_size;
static int setup_made;

static const void *make_setup(UINTN *size)
{
	if (setup_made++)
		return NULL;
	setup_image = bds_program(9, &setup_size);
	*size = setup_size;
	return setup_image;
}

/* The platform's own boot (QEMU's -kernel): how many programs had run when it was tried. */
static int direct_boot_after = -1;

static void direct_boot(void)
{
	direct_boot_after = (int)bds_world.run_count;
}

/* BOOT_TO_FW_UI opens the setup screen directly (no menu), before the platform's own boot
 * (as a Linux started by -kernel that asked for it expects) and the options. */
static void os_indications_open_setup(void)
{
	UINT64 indications = 1; /* EFI_OS_INDICATIONS_BOOT_TO_FW_UI */
	struct bds_platform platform = {.setup_make = make_setup, .direct_boot = direct_boot};

	two_options();
	console_use(NULL, 0);
	ASSERT_STATUS(variable_set(u"OsIndications", &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   sizeof(indications), &indications),
		      EFI_SUCCESS);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "9,1,2"));
	EXPECT(!strstr(con.text, "Ember boot menu"));
	EXPECT_EQ(direct_boot_after, 1);
}

TEST(bds_menu_os_indications_open_the_setup_screen)
{
	RUN_ISOLATED(os_indications_open_setup);
}

/* The menu's last entry, "Ember settings", opens the setup screen. */
static void menu_settings_entry(void)
{
	static const EFI_INPUT_KEY keys[] = {{GAP, 0},
					     {SCAN_ESC, 0},
					     {GAP, 0},
					     {SCAN_DOWN, 0},
					     {SCAN_DOWN, 0},
					     {SCAN_DOWN, 0},
					     {0, CHAR_CARRIAGE_RETURN}};
	struct bds_platform platform = {.menu_wait_ms = 20, .setup_make = make_setup};

	two_options();
	console_use(keys, ARRAY_SIZE(keys));
	bds_run(&platform);
	EXPECT(strstr(con.text, " > Ember settings"));
	EXPECT(!strcmp(bds_runs_text(), "9,1,2"));
}

TEST(bds_menu_settings_entry)
{
	RUN_ISOLATED(menu_settings_entry);
}

/* Nothing boots and the fallback (the shell) returns, as with its exit: the setup screen
 * opens, then the boot order runs again. */
static void fallback_exit_opens_setup(void)
{
	static UINT8 *shell;
	struct bds_platform platform = {.setup_make = make_setup};
	size_t size;

	shell = bds_program(8, &size);
	platform.fallback_image = shell;
	platform.fallback_size = size;
	two_options();
	console_use(NULL, 0);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2,8,9,1,2,8"));
}

/* Without BOOT_TO_FW_UI the platform's own boot comes first; the options follow when it
 * returns. */
static void direct_boot_first(void)
{
	struct bds_platform platform = {.direct_boot = direct_boot};

	two_options();
	console_use(NULL, 0);
	bds_run(&platform);
	EXPECT_EQ(direct_boot_after, 0);
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
}

TEST(bds_direct_boot_before_the_options)
{
	RUN_ISOLATED(direct_boot_first);
}

TEST(bds_menu_setup_after_the_shell_exits)
{
	RUN_ISOLATED(fallback_exit_opens_setup);
}

/* The Timeout variable (set in the setup screen) lengthens the wait for the menu key: a key
 * that comes after the first look opens the menu only with it. */
static void timeout_variable(void)
{
	static const EFI_INPUT_KEY keys[] = {{GAP, 0}, {SCAN_ESC, 0}, {GAP, 0}, {SCAN_ESC, 0}};
	UINT16 timeout = 1;
	struct bds_platform platform = {0};

	two_options();
	console_use(keys, ARRAY_SIZE(keys));
	bds_run(&platform);
	EXPECT(!strstr(con.text, "Ember boot menu"));
	ASSERT_STATUS(variable_set(u"Timeout", &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   sizeof(timeout), &timeout),
		      EFI_SUCCESS);
	console_use(keys, ARRAY_SIZE(keys));
	con.next_key = 0;
	bds_run(&platform);
	EXPECT(strstr(con.text, "Press Esc, F2 or F12 for the boot menu."));
	EXPECT(strstr(con.text, "Ember boot menu"));
}

TEST(bds_menu_waits_the_timeout_variable)
{
	RUN_ISOLATED(timeout_variable);
}
