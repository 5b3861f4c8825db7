/* The SMBIOS tables an OS finds (tests/qemu/test_aarch64_smbios.py runs it on Ember and
 * AAVMF): the SMBIOS3 configuration table, its 3.0 entry point checked (anchor, length,
 * checksum), the structures walked within TableMaximumSize, and the system information
 * (type 1) manufacturer and product strings printed; then whether a 2.x entry point
 * (SMBIOS_TABLE_GUID) is there too. One line each. */
#include <efi/smbios.h>
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#define TYPE_SYSTEM 1
#define SYSTEM_MANUFACTURER 4 /* offsets of string numbers in type 1 */
#define SYSTEM_PRODUCT 5

static EFI_SYSTEM_TABLE *st;

static void say(const char *text)
{
	CHAR16 line[200];
	UINTN i = 0;

	for (; text[i] && i < 197; i++)
		line[i] = (CHAR16)text[i];
	line[i] = 0;
	st->ConOut->OutputString(st->ConOut, line);
}

/* Appends s at p: at most 64 characters, none at or past end (NULL: a literal). */
static char *text(char *p, const char *s, const UINT8 *end)
{
	for (int n = 0; n < 64 && (!end || (const UINT8 *)s < end) && *s; n++)
		*p++ = *s++;
	*p = 0;
	return p;
}

static void *config_table(EFI_GUID guid)
{
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		const UINT8 *x = (const UINT8 *)&st->ConfigurationTable[i].VendorGuid;
		const UINT8 *y = (const UINT8 *)&guid;
		int same = 1;

		for (int k = 0; k < 16; k++)
			same &= x[k] == y[k];
		if (same)
			return st->ConfigurationTable[i].VendorTable;
	}
	return NULL;
}

/* String number n (from 1) of the structure at s, bounded by end; "" when absent. */
static const char *string(const UINT8 *s, UINT8 n, const UINT8 *end)
{
	const UINT8 *p = s + s[1];

	while (n > 1 && p < end) {
		while (p < end && *p)
			p++;
		p++;
		n--;
	}
	return n == 1 && p < end && *p ? (const char *)p : "";
}

/* The end of the structure at s (after its strings' double NUL), or NULL past end. */
static const UINT8 *next(const UINT8 *s, const UINT8 *end)
{
	for (const UINT8 *p = s + s[1]; p + 1 < end; p++)
		if (!p[0] && !p[1])
			return p + 2;
	return NULL;
}

static int entry_point_ok(const SMBIOS_TABLE_3_0_ENTRY_POINT *ep)
{
	const UINT8 *b = (const UINT8 *)ep;
	UINT8 sum = 0;

	for (UINTN i = 0; i < sizeof(*ep); i++)
		sum += b[i];
	return b[0] == '_' && b[1] == 'S' && b[2] == 'M' && b[3] == '3' && b[4] == '_' &&
	       ep->EntryPointLength == sizeof(*ep) && !sum;
}

static void show_system(const SMBIOS_TABLE_3_0_ENTRY_POINT *ep)
{
	const UINT8 *s = (const UINT8 *)(UINTN)ep->TableAddress;
	const UINT8 *end = s + ep->TableMaximumSize;
	char line[200], *p;

	while (s && s + 4 <= end && s + s[1] <= end && s[0] != SMBIOS_TYPE_END_OF_TABLE) {
		if (s[0] == TYPE_SYSTEM && s[1] > SYSTEM_PRODUCT) {
			p = text(line, "smbios: type 1 manufacturer \"", NULL);
			p = text(p, string(s, s[SYSTEM_MANUFACTURER], end), end);
			p = text(p, "\" product \"", NULL);
			p = text(p, string(s, s[SYSTEM_PRODUCT], end), end);
			text(p, "\"\r\n", NULL);
			say(line);
			return;
		}
		s = next(s, end);
	}
	say("smbios: no type 1 structure\r\n");
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	SMBIOS_TABLE_3_0_ENTRY_POINT *ep;

	st = systab;
	ep = config_table((EFI_GUID)SMBIOS3_TABLE_GUID);
	if (!ep) {
		say("smbios: no SMBIOS3 table\r\n");
		return EFI_NOT_FOUND;
	}
	if (!entry_point_ok(ep)) {
		say("smbios: the 3.0 entry point is broken\r\n");
		return EFI_COMPROMISED_DATA;
	}
	say("smbios: 3.0 entry point checked\r\n");
	show_system(ep);
	say(config_table((EFI_GUID)SMBIOS_TABLE_GUID) ? "smbios: 2.x entry point too\r\n"
						      : "smbios: no 2.x entry point\r\n");
	return EFI_SUCCESS;
}
