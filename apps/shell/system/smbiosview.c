/* smbiosview: the SMBIOS tables (DMTF DSP0134 3.7): the entry point, one line per
 * structure, the structures of a type or handle in words, statistics. */
#include "sys.h"
#include <efi/smbios.h>
#include <ember/lib/guids.h>

struct smbios {
	const UINT8 *table;
	UINTN size;
	UINT8 major, minor;
};

static const char *const type_names[] = {"BIOS Information",
					 "System Information",
					 "Baseboard Information",
					 "System Enclosure",
					 "Processor Information",
					 "Memory Controller Information",
					 "Memory Module Information",
					 "Cache Information",
					 "Port Connector Information",
					 "System Slots",
					 "On Board Devices Information",
					 "OEM Strings",
					 "System Configuration Options",
					 "BIOS Language Information",
					 "Group Associations",
					 "System Event Log",
					 "Physical Memory Array",
					 "Memory Device",
					 "32-bit Memory Error Information",
					 "Memory Array Mapped Address",
					 "Memory Device Mapped Address",
					 "Built-in Pointing Device",
					 "Portable Battery",
					 "System Reset",
					 "Hardware Security",
					 "System Power Controls",
					 "Voltage Probe",
					 "Cooling Device",
					 "Temperature Probe",
					 "Electrical Current Probe",
					 "Out-of-Band Remote Access",
					 "Boot Integrity Services Entry Point",
					 "System Boot Information",
					 "64-bit Memory Error Information",
					 "Management Device",
					 "Management Device Component",
					 "Management Device Threshold Data",
					 "Memory Channel",
					 "IPMI Device Information",
					 "System Power Supply",
					 "Additional Information",
					 "Onboard Devices Extended Information",
					 "Management Controller Host Interface",
					 "TPM Device",
					 "Processor Additional Information",
					 "Firmware Inventory Information",
					 "String Property"};

static const char *type_name(UINT8 type)
{
	if (type < ARRAY_SIZE(type_names))
		return type_names[type];
	if (type == 126)
		return "Inactive";
	if (type == SMBIOS_TYPE_END_OF_TABLE)
		return "End of Table";
	return type >= 128 ? "OEM" : "Unknown";
}

static void *config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		if (guid_eq(&app_st->ConfigurationTable[i].VendorGuid, guid))
			return app_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

/* Finds the table, preferring the 64-bit entry point; prints what the entry point says. */
static bool find_table(struct shell *sh, struct smbios *s, bool quiet)
{
	const SMBIOS_TABLE_3_0_ENTRY_POINT *ep3 = config_table(&efi_smbios3_table_guid);
	const SMBIOS_TABLE_ENTRY_POINT *ep = config_table(&efi_smbios_table_guid);

	if (ep3 && mem_cmp(ep3->AnchorString, "_SM3_", 5) == 0) {
		*s = (struct smbios){(const UINT8 *)(UINTN)ep3->TableAddress, ep3->TableMaximumSize,
				     ep3->MajorVersion, ep3->MinorVersion};
		if (!quiet)
			sh_print(sh,
				 "SMBIOS %u.%u, 64-bit entry point at %016llX, table at "
				 "%016llX (up to %u bytes)\n",
				 s->major, s->minor, (unsigned long long)(UINTN)ep3,
				 (unsigned long long)ep3->TableAddress, (unsigned)s->size);
		return true;
	}
	if (ep && mem_cmp(ep->AnchorString, "_SM_", 4) == 0) {
		*s = (struct smbios){(const UINT8 *)(UINTN)ep->TableAddress, ep->TableLength,
				     ep->MajorVersion, ep->MinorVersion};
		if (!quiet)
			sh_print(sh,
				 "SMBIOS %u.%u, 32-bit entry point at %016llX, table at %08X "
				 "(%u bytes, %u structures)\n",
				 s->major, s->minor, (unsigned long long)(UINTN)ep,
				 ep->TableAddress, ep->TableLength, ep->NumberOfSmbiosStructures);
		return true;
	}
	sh_error(sh, "smbiosview: the firmware publishes no SMBIOS table\n");
	return false;
}

/* The structure after s (its strings end with two NULs), or NULL past the table. */
static const SMBIOS_STRUCTURE *next(const struct smbios *t, const SMBIOS_STRUCTURE *s)
{
	const UINT8 *p = (const UINT8 *)s + s->Length, *end = t->table + t->size;

	while (p + 1 < end && (p[0] || p[1]))
		p++;
	p += 2;
	return p + sizeof(SMBIOS_STRUCTURE) <= end ? (const SMBIOS_STRUCTURE *)p : NULL;
}

static const SMBIOS_STRUCTURE *first(const struct smbios *t)
{
	const SMBIOS_STRUCTURE *s = (const SMBIOS_STRUCTURE *)t->table;

	return t->size >= sizeof(*s) && s->Length >= sizeof(*s) ? s : NULL;
}

/* String number n of a structure (1-based), "" for 0 or a missing one. */
static const char *string_of(const SMBIOS_STRUCTURE *s, UINT8 n)
{
	const char *p = (const char *)s + s->Length;

	if (!n)
		return "";
	for (UINT8 i = 1; i < n && *p; i++)
		p += str8_len(p) + 1;
	return p;
}

static void field_string(struct shell *sh, const SMBIOS_STRUCTURE *s, const char *label, UINTN off)
{
	const char *text = off < s->Length ? string_of(s, ((const UINT8 *)s)[off]) : "";

	if (*text)
		sh_print(sh, "  %-16s %s\n", label, text);
}

static UINT32 field(const SMBIOS_STRUCTURE *s, UINTN off, UINTN size)
{
	UINT32 v = 0;

	if (off + size <= s->Length)
		mem_copy(&v, (const UINT8 *)s + off, size);
	return v;
}

/* The fields people look for in the common types; every structure also gets its
 * strings and bytes. */
static void decode(struct shell *sh, const SMBIOS_STRUCTURE *s)
{
	static const struct {
		UINT8 type, off;
		const char *label;
	} strings[] = {
	    {0, 4, "Vendor:"},	      {0, 5, "Version:"},	   {0, 8, "Release date:"},
	    {1, 4, "Manufacturer:"},  {1, 5, "Product:"},	   {1, 6, "Version:"},
	    {1, 7, "Serial number:"}, {2, 4, "Manufacturer:"},	   {2, 5, "Product:"},
	    {3, 4, "Manufacturer:"},  {3, 6, "Version:"},	   {4, 4, "Socket:"},
	    {4, 7, "Manufacturer:"},  {4, 0x10, "Version:"},	   {17, 0x10, "Locator:"},
	    {17, 0x11, "Bank:"},      {17, 0x17, "Manufacturer:"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(strings); i++)
		if (strings[i].type == s->Type)
			field_string(sh, s, strings[i].label, strings[i].off);
	if (s->Type == 4 && s->Length > 0x16)
		sh_print(sh, "  %-16s %u MHz (max %u MHz)\n", "Speed:", field(s, 0x16, 2),
			 field(s, 0x14, 2));
	if (s->Type == 17 && s->Length > 0x0d) {
		UINT32 size = field(s, 0x0c, 2);
		if (size == 0x7fff && s->Length >= 0x20)
			sh_print(sh, "  %-16s %u MB\n", "Size:", field(s, 0x1c, 4));
		else if (size && size != 0xffff)
			sh_print(sh, "  %-16s %u %s\n", "Size:", size & 0x7fff,
				 size & 0x8000 ? "KB" : "MB");
	}
	if (s->Type == 19 && s->Length >= 0x0c)
		sh_print(sh, "  %-16s %08X-%08X KB\n", "Range:", field(s, 4, 4), field(s, 8, 4));
}

static void show(struct shell *sh, const SMBIOS_STRUCTURE *s)
{
	const char *p = (const char *)s + s->Length;

	sh_print(sh, "Handle %04X, type %u (%s), length %u\n", s->Handle, s->Type,
		 type_name(s->Type), s->Length);
	decode(sh, s);
	for (UINT8 n = 1; *p; n++, p += str8_len(p) + 1)
		sh_print(sh, "  String %u: %s\n", n, p);
	sys_hexdump(sh, 2, 0, s, s->Length);
}

static void statistics(struct shell *sh, const struct smbios *t)
{
	UINTN counts[256] = {0}, total = 0;

	for (const SMBIOS_STRUCTURE *s = first(t); s; s = next(t, s)) {
		counts[s->Type]++;
		total++;
		if (s->Type == SMBIOS_TYPE_END_OF_TABLE)
			break;
	}
	sh_print(sh, "Type  Count  Description\n");
	for (UINTN i = 0; i < 256; i++)
		if (counts[i])
			sh_print(sh, "%4u  %5u  %s\n", (unsigned)i, (unsigned)counts[i],
				 type_name((UINT8)i));
	sh_print(sh, "%u structures\n", (unsigned)total);
}

/* What smbiosview was asked for. */
struct request {
	bool list, all, stats;
	const CHAR16 *type_text, *handle_text;
	UINT64 type, handle;
};

static bool wanted(const struct request *r, const SMBIOS_STRUCTURE *s)
{
	return r->all || (r->type_text && s->Type == r->type) ||
	       (r->handle_text && s->Handle == r->handle);
}

/* One line per structure (list), or the wanted ones in detail; how many were shown. */
static UINTN walk(struct shell *sh, const struct smbios *t, const struct request *r)
{
	UINTN shown = 0;

	if (r->list)
		sh_print(sh, "Handle  Type  Length  Description\n");
	for (const SMBIOS_STRUCTURE *s = first(t); s && !sh_interrupted(sh); s = next(t, s)) {
		if (r->list)
			sh_print(sh, "%04X    %4u  %6u  %s\n", s->Handle, s->Type, s->Length,
				 type_name(s->Type));
		else if (wanted(r, s)) {
			show(sh, s);
			shown++;
		}
		if (s->Type == SMBIOS_TYPE_END_OF_TABLE)
			break;
	}
	return shown;
}

static EFI_STATUS cmd_smbiosview(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-t", SH_OPT_VALUE},
					     {"-h", SH_OPT_VALUE},
					     {"-s", SH_OPT_FLAG},
					     {"-a", SH_OPT_FLAG},
					     {NULL}};
	struct sh_args a;
	struct smbios t;
	struct request r = {0};
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	r.type_text = sh_args_value(&a, "-t");
	r.handle_text = sh_args_value(&a, "-h");
	if (a.count ||
	    (r.type_text && (!sh_parse_u64(r.type_text, false, &r.type) || r.type > 255)) ||
	    (r.handle_text &&
	     (!sh_parse_u64(r.handle_text, true, &r.handle) || r.handle > 0xffff))) {
		sh_error(sh, "smbiosview: -t takes a type (decimal), -h a handle (hex)\n");
		return EFI_INVALID_PARAMETER;
	}
	r.all = sh_args_has(&a, "-a");
	r.stats = sh_args_has(&a, "-s");
	r.list = !r.type_text && !r.handle_text && !r.all && !r.stats;
	if (!find_table(sh, &t, !r.list && !r.all))
		return EFI_NOT_FOUND;
	if (r.stats) {
		statistics(sh, &t);
		return EFI_SUCCESS;
	}
	if (!walk(sh, &t, &r) && !r.list) {
		sh_error(sh, "smbiosview: no structure of that %s\n",
			 r.type_text ? "type" : "handle");
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

SH_COMMAND(smbiosview, "smbiosview", "Shows the SMBIOS tables",
	   "smbiosview [-t type | -h handle | -s | -a]\n"
	   "  Without options, prints the SMBIOS entry point and one line per structure:\n"
	   "  handle, type, length and what the type is (BIOS Information, Processor ...).\n"
	   "  -t type    shows the structures of a type (decimal: 0 BIOS, 1 System, 2\n"
	   "             Baseboard, 3 Enclosure, 4 Processor, 17 Memory Device ...): the\n"
	   "             common fields in words, the strings, the bytes\n"
	   "  -h handle  shows the structure with that handle (hex)\n"
	   "  -s         counts the structures of each type\n"
	   "  -a         shows every structure\n"
	   "  Examples:\n"
	   "    smbiosview\n"
	   "    smbiosview -t 1\n",
	   cmd_smbiosview);
