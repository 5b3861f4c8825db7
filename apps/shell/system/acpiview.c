/* acpiview: the ACPI tables the firmware publishes (ACPI 6.5, 5.2): the RSDP, the tables
 * of the XSDT (or RSDT) and the DSDT and FACS the FADT points at, with their headers and
 * checksums; -s dumps one table in hex. */
#include "sys.h"
#include <efi/acpi.h>
#include <ember/lib/guids.h>

static void *config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		if (guid_eq(&app_st->ConfigurationTable[i].VendorGuid, guid))
			return app_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

static bool checksum_ok(const void *p, UINTN n)
{
	UINT8 sum = 0;

	for (UINTN i = 0; i < n; i++)
		sum = (UINT8)(sum + ((const UINT8 *)p)[i]);
	return sum == 0;
}

/* The tables in visiting order: the root table's entries, then the FADT's DSDT and FACS. */
struct tables {
	const EFI_ACPI_DESCRIPTION_HEADER *t[64];
	UINTN count;
};

static void add(struct tables *l, UINT64 address)
{
	if (address && l->count < ARRAY_SIZE(l->t))
		l->t[l->count++] = (const EFI_ACPI_DESCRIPTION_HEADER *)(UINTN)address;
}

static UINT64 get(const void *p, UINTN off, UINTN size)
{
	UINT64 v = 0;

	mem_copy(&v, (const UINT8 *)p + off, size);
	return v;
}

static void from_fadt(struct tables *l, const EFI_ACPI_DESCRIPTION_HEADER *fadt)
{
	UINT64 dsdt = 0, facs = 0;

	if (fadt->Length >= EFI_ACPI_FADT_X_DSDT_OFFSET + 8)
		dsdt = get(fadt, EFI_ACPI_FADT_X_DSDT_OFFSET, 8);
	if (!dsdt)
		dsdt = get(fadt, EFI_ACPI_FADT_DSDT_OFFSET, 4);
	if (fadt->Length >= EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET + 8)
		facs = get(fadt, EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET, 8);
	if (!facs)
		facs = get(fadt, EFI_ACPI_FADT_FIRMWARE_CTRL_OFFSET, 4);
	add(l, dsdt);
	add(l, facs);
}

/* Fills l from the RSDP; false when there is no usable RSDP. */
static bool collect(const EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp, struct tables *l)
{
	bool xsdt = rsdp->Revision >= EFI_ACPI_RSDP_REVISION_2 && rsdp->XsdtAddress;
	const EFI_ACPI_DESCRIPTION_HEADER *root =
	    (const void *)(UINTN)(xsdt ? rsdp->XsdtAddress : rsdp->RsdtAddress);
	UINTN entry = xsdt ? 8 : 4, n;

	l->count = 0;
	if (!root)
		return false;
	add(l, (UINTN)root);
	n = (root->Length - sizeof(*root)) / entry;
	for (UINTN i = 0; i < n; i++) {
		const EFI_ACPI_DESCRIPTION_HEADER *t =
		    (const void *)(UINTN)get(root, sizeof(*root) + i * entry, entry);
		add(l, (UINTN)t);
		if (t && mem_cmp(t->Signature, EFI_ACPI_FADT_SIGNATURE, 4) == 0)
			from_fadt(l, t);
	}
	return true;
}

static bool is_facs(const EFI_ACPI_DESCRIPTION_HEADER *t)
{
	return mem_cmp(t->Signature, EFI_ACPI_FACS_SIGNATURE, 4) == 0;
}

static void print_row(struct shell *sh, const EFI_ACPI_DESCRIPTION_HEADER *t)
{
	char sig[5] = {0}, oem[7] = {0}, table_id[9] = {0};

	mem_copy(sig, t->Signature, 4);
	if (is_facs(t)) { /* no standard header: signature, length, then its own fields */
		sh_print(sh, "%-4s  %016llX  %6u\n", sig, (unsigned long long)(UINTN)t, t->Length);
		return;
	}
	mem_copy(oem, t->OemId, 6);
	mem_copy(table_id, t->OemTableId, 8);
	sh_print(sh, "%-4s  %016llX  %6u  %3u  %-6s  %-8s  %08X  %s\n", sig,
		 (unsigned long long)(UINTN)t, t->Length, t->Revision, oem, table_id,
		 t->OemRevision, checksum_ok(t, t->Length) ? "ok" : "BAD");
}

static EFI_STATUS dump_table(struct shell *sh, const struct tables *l, const CHAR16 *sig)
{
	UINTN found = 0;
	char want[5] = {0};

	for (int i = 0; i < 4 && sig[i]; i++)
		want[i] = (char)sig[i];
	if (str16_len(sig) != 4) {
		sh_error(sh, "acpiview: a table signature has four letters (FACP, APIC ...)\n");
		return EFI_INVALID_PARAMETER;
	}
	for (UINTN i = 0; i < l->count; i++) {
		const EFI_ACPI_DESCRIPTION_HEADER *t = l->t[i];
		if (mem_cmp(t->Signature, want, 4) != 0)
			continue;
		found++;
		print_row(sh, t);
		sys_hexdump(sh, 2, 0, t, t->Length);
	}
	if (!found) {
		sh_error(sh, "acpiview: there is no %s table\n", want);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_acpiview(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-s", SH_OPT_VALUE}, {"-l", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	const EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp;
	struct tables *l;
	char oem[7] = {0};
	const CHAR16 *sig;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	rsdp = config_table(&efi_acpi_20_table_guid);
	if (!rsdp)
		rsdp = config_table(&efi_acpi_table_guid);
	if (!rsdp || mem_cmp(rsdp->Signature, EFI_ACPI_RSDP_SIGNATURE, 8) != 0) {
		sh_error(sh, "acpiview: the firmware publishes no ACPI tables\n");
		return EFI_NOT_FOUND;
	}
	l = app_alloc(sizeof(*l));
	if (!l)
		return EFI_OUT_OF_RESOURCES;
	collect(rsdp, l);
	if ((sig = sh_args_value(&a, "-s"))) {
		status = dump_table(sh, l, sig);
		app_free(l);
		return status;
	}
	mem_copy(oem, rsdp->OemId, 6);
	sh_print(sh, "RSDP at %016llX: revision %u, OEM '%s', RSDT %08X, XSDT %016llX, %s\n",
		 (unsigned long long)(UINTN)rsdp, rsdp->Revision, oem, rsdp->RsdtAddress,
		 (unsigned long long)(rsdp->Revision >= 2 ? rsdp->XsdtAddress : 0),
		 checksum_ok(rsdp, EFI_ACPI_RSDP_V1_SIZE) ? "checksum ok" : "checksum BAD");
	sh_print(sh, "Sig   Address           Length  Rev  OEM     Table     OEM Rev   Sum\n");
	for (UINTN i = 0; i < l->count && !sh_interrupted(sh); i++)
		print_row(sh, l->t[i]);
	app_free(l);
	return EFI_SUCCESS;
}

SH_COMMAND(acpiview, "acpiview", "Lists the ACPI tables",
	   "acpiview [-l] [-s signature]\n"
	   "  Lists the ACPI tables the firmware gives the OS: the RSDP, then each table of\n"
	   "  the XSDT (or RSDT), and the DSDT and FACS of the FADT, with its address,\n"
	   "  length, revision, OEM and table IDs and whether its checksum adds up.\n"
	   "  -l     the list (the default)\n"
	   "  -s sig dumps the tables with that signature in hex (FACP, APIC, DSDT,\n"
	   "         MCFG ...)\n"
	   "  Examples:\n"
	   "    acpiview\n"
	   "    acpiview -s APIC\n",
	   cmd_acpiview);
