/* The boot menu: a key at start (Esc, F2 or F12, on any console) opens a list of the boot
 * options (and "Ember settings" when the platform has the setup screen); arrow keys move,
 * Enter boots, Esc leaves. */
#include "bds.h"
#include <ember/core/boot_logo.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define POLL_US 10000

static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out(void)
{
	return core_st->ConOut;
}

void bds_say(const char *fmt, ...)
{
	char text[256];
	CHAR16 units[256];
	va_list ap;

	va_start(ap, fmt);
	format_vsn(text, sizeof(text), fmt, ap);
	va_end(ap);
	utf8_to_ucs2(units, ARRAY_SIZE(units), text, str8_len(text));
	if (out())
		out()->OutputString(out(), units);
}

static bool read_key(EFI_INPUT_KEY *key)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = core_st->ConIn;

	return in && !EFI_ERROR(in->ReadKeyStroke(in, key));
}

static bool is_menu_key(const EFI_INPUT_KEY *key)
{
	return key->ScanCode == SCAN_ESC || key->ScanCode == SCAN_F2 || key->ScanCode == SCAN_F12;
}

bool bds_menu_key_pressed(UINT32 wait_ms)
{
	EFI_INPUT_KEY key;
	UINT64 waited = 0;

	if (wait_ms)
		bds_say("Press Esc, F2 or F12 for the boot menu.\r\n");
	do {
		while (read_key(&key))
			if (is_menu_key(&key))
				return true;
		if (waited >= (UINT64)wait_ms * 1000)
			break;
		core_stall_us(POLL_US);
		waited += POLL_US;
	} while (true);
	return false;
}

/* A one-byte global variable, or fallback when it is missing or of another size. */
static UINT8 global_u8(const CHAR16 *name, UINT8 fallback)
{
	UINT8 value = 0;
	UINTN size = sizeof(value);

	if (EFI_ERROR(variable_get(name, &efi_global_variable_guid, NULL, &size, &value)) ||
	    size != sizeof(value))
		return fallback;
	return value;
}

static void draw(const UINT16 *order, UINTN count, UINTN selected, bool settings)
{
	/* Users check here whether keys are enrolled before they boot (32.3). */
	bool secure = global_u8(u"SecureBoot", 0) == 1, setup = global_u8(u"SetupMode", 1) == 1;

	out()->ClearScreen(out());
	bds_say("Ember boot menu   (Up/Down to choose, Enter to boot, Esc to leave)\r\n");
	bds_say("Secure Boot: %s (%s)\r\n\r\n", secure ? "enabled" : "disabled",
		setup ? "setup mode" : "user mode");
	for (UINTN i = 0; i < count; i++) {
		struct bds_option o;
		bool ok = bds_option_read(u"Boot", order[i], &o);
		bds_say("%s Boot%04X  %ls\r\n", i == selected ? " >" : "  ", order[i],
			ok ? o.lo.description : u"(unreadable option)");
		if (ok)
			bds_option_free(&o);
	}
	if (settings)
		bds_say("%s Ember settings\r\n", selected == count ? " >" : "  ");
}

int bds_menu(void)
{
	return bds_menu_with(false);
}

/* The menu's choice: an option number, BDS_MENU_SETTINGS, -1 for none. */
int bds_menu_with(bool settings)
{
	UINTN count, selected = 0;
	UINT16 *order = bds_order_read(u"BootOrder", &count);
	UINTN entries = count + (settings ? 1 : 0);
	EFI_INPUT_KEY key;
	int chosen = -1;

	if (!out() || !entries) {
		pool_free(order);
		return -1;
	}
	/* Keys pressed to open the menu (held or repeated) must not act inside it. */
	core_stall_us(POLL_US);
	while (read_key(&key))
		;
	boot_logo_covered(); /* the menu clears the screen */
	draw(order, count, selected, settings);
	for (;;) {
		if (!read_key(&key)) {
			core_stall_us(POLL_US);
			continue;
		}
		if (key.ScanCode == SCAN_UP && selected > 0)
			selected--;
		else if (key.ScanCode == SCAN_DOWN && selected + 1 < entries)
			selected++;
		else if (key.UnicodeChar == CHAR_CARRIAGE_RETURN) {
			chosen = selected < count ? order[selected] : BDS_MENU_SETTINGS;
			break;
		} else if (key.ScanCode == SCAN_ESC)
			break;
		else
			continue;
		draw(order, count, selected, settings);
	}
	out()->ClearScreen(out());
	pool_free(order);
	return chosen;
}
