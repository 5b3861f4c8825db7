/* memmap: the UEFI memory map (GetMemoryMap) in the UEFI Shell's layout, one line per
 * descriptor, then the pages and bytes of each type and the total memory. */
#include "sys.h"

static const char *const type_names[] = {"Reserved",  "LoaderCode", "LoaderData", "BS_Code",
					 "BS_Data",   "RT_Code",    "RT_Data",	  "Available",
					 "Unusable",  "ACPI_Recl",  "ACPI_NVS",	  "MMIO",
					 "MMIO_Port", "PalCode",    "Persistent", "Unaccepted"};

#define TYPES ARRAY_SIZE(type_names)

static const char *type_name(UINT32 type)
{
	if (type < TYPES)
		return type_names[type];
	return type >= 0x80000000 ? "OS" : type >= 0x70000000 ? "OEM" : "Unknown";
}

/* The map, in an allocated buffer; retried while it grows under our feet. */
static EFI_STATUS get_map(EFI_MEMORY_DESCRIPTOR **map, UINTN *size, UINTN *desc_size)
{
	UINTN key;
	UINT32 version;
	EFI_STATUS status = EFI_BUFFER_TOO_SMALL;

	*map = NULL;
	*size = 0;
	for (int tries = 0; tries < 8 && status == EFI_BUFFER_TOO_SMALL; tries++) {
		app_free(*map);
		*size += 4096; /* room for the descriptors our own allocation adds */
		*map = app_alloc(*size);
		if (!*map)
			return EFI_OUT_OF_RESOURCES;
		status = app_bs->GetMemoryMap(size, *map, &key, desc_size, &version);
	}
	if (EFI_ERROR(status)) {
		app_free(*map);
		*map = NULL;
	}
	return status;
}

static void print_totals(struct shell *sh, const UINT64 pages[TYPES])
{
	UINT64 total = 0;
	char a[32], b[32];

	sh_print(sh, " \n");
	for (UINTN t = 0; t < TYPES; t++) {
		sh_print(sh, "  %-10s: %14s Pages (%s Bytes)\n", type_names[t],
			 sys_commas(a, pages[t]), sys_commas(b, pages[t] * 4096));
		/* Memory in the machine, not address space: the shell's rule. */
		if (t != EfiReservedMemoryType && t != EfiUnusableMemory &&
		    t != EfiMemoryMappedIO && t != EfiMemoryMappedIOPortSpace)
			total += pages[t] * 4096;
	}
	sh_print(sh, "              -------------- \n");
	sh_print(sh, "Total Memory: %14s MB (%s Bytes)\n", sys_commas(a, total >> 20),
		 sys_commas(b, total));
}

static void print_sfo_totals(struct shell *sh, const UINT64 pages[TYPES])
{
	UINT64 total = 0;

	for (UINTN t = 0; t < TYPES; t++)
		if (t != EfiReservedMemoryType && t != EfiUnusableMemory &&
		    t != EfiMemoryMappedIO && t != EfiMemoryMappedIOPortSpace)
			total += pages[t] * 4096;
	sh_print(sh, "MemoryMapSummary,\"%llu\"", (unsigned long long)total);
	for (UINTN t = 0; t < TYPES; t++)
		sh_print(sh, ",\"%llu\"", (unsigned long long)(pages[t] * 4096));
	sh_print(sh, "\n");
}

static EFI_STATUS cmd_memmap(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_MEMORY_DESCRIPTOR *map;
	UINTN size, desc_size;
	UINT64 pages[TYPES] = {0};
	bool sfo;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	sfo = sh_args_has(&a, "-sfo");
	status = get_map(&map, &size, &desc_size);
	if (EFI_ERROR(status)) {
		sh_error(sh, "memmap: cannot get the memory map: %s\n", sys_status_text(status));
		return status;
	}
	if (sfo)
		sh_print(sh, "ShellCommand,\"memmap\"\n");
	else
		sh_print(sh, "Type       Start            End              # Pages          "
			     "Attributes\n");
	for (UINTN off = 0; off + desc_size <= size && !sh_interrupted(sh); off += desc_size) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + off);
		UINT64 end = d->PhysicalStart + d->NumberOfPages * 4096 - 1;
		if (d->Type < TYPES)
			pages[d->Type] += d->NumberOfPages;
		sh_print(sh,
			 sfo ? "MemoryMap,\"%s\",\"%llX\",\"%llX\",\"%llX\",\"%llX\"\n"
			     : "%-10s %016llX-%016llX %016llX %016llX\n",
			 type_name(d->Type), (unsigned long long)d->PhysicalStart,
			 (unsigned long long)end, (unsigned long long)d->NumberOfPages,
			 (unsigned long long)d->Attribute);
	}
	app_free(map);
	if (sfo)
		print_sfo_totals(sh, pages);
	else
		print_totals(sh, pages);
	return EFI_SUCCESS;
}

SH_COMMAND(memmap, "memmap", "Shows the memory map",
	   "memmap [-sfo]\n"
	   "  Prints the firmware's memory map: each range's type, first and last address,\n"
	   "  size in 4 KiB pages and attributes (hex), then the pages of each type and the\n"
	   "  total memory (everything but Reserved, Unusable, MMIO and MMIO_Port).\n"
	   "  Types: Available (free), LoaderCode/LoaderData (programs like this shell),\n"
	   "  BS_Code/BS_Data (boot services: freed at ExitBootServices), RT_Code/RT_Data\n"
	   "  (runtime services, kept for the OS), ACPI_Recl/ACPI_NVS (ACPI tables), MMIO.\n"
	   "  Attributes: 1 UC, 2 WC, 4 WT, 8 WB, 1000 WP, 2000 RP, 4000 XP,\n"
	   "  8000000000000000 RUNTIME.\n"
	   "  -sfo  standard-format output: MemoryMap,\"type\",\"start\",\"end\",\"pages\",\n"
	   "        \"attributes\" lines, then MemoryMapSummary,\"total bytes\" and the bytes\n"
	   "        of each type in the order above\n"
	   "  Example: memmap -b\n",
	   cmd_memmap);
