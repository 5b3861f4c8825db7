/* hexdump: shows the bytes of a file in hex and as characters, like dmem shows memory. */
#include "../internal.h"

#define LINE 16

static void dump_line(struct shell *sh, UINT64 offset, const UINT8 *p, UINTN n)
{
	char chars[LINE + 1];

	sh_print(sh, "%08llx:", (unsigned long long)offset);
	for (UINTN i = 0; i < LINE; i++) {
		if (i < n)
			sh_print(sh, "%c%02x", i == 8 ? '-' : ' ', p[i]);
		else
			sh_print(sh, "   ");
		chars[i] = i < n ? (p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.') : ' ';
	}
	chars[LINE] = 0;
	sh_print(sh, "  *%s*\n", chars);
}

static EFI_STATUS dump(struct shell *sh, const CHAR16 *name, UINT64 skip, UINT64 length)
{
	void *data;
	UINTN size;
	EFI_STATUS status = sh_read_file(sh, name, &data, &size);
	UINT64 end;

	if (EFI_ERROR(status)) {
		sh_error(sh, "hexdump: %ls: %s\n", name, sh_status_text(status));
		return status;
	}
	end = skip >= size ? skip : skip + MIN(length, (UINT64)size - skip);
	for (UINT64 off = skip; off < end && !sh_interrupted(sh); off += LINE)
		dump_line(sh, off, (const UINT8 *)data + off, (UINTN)MIN((UINT64)LINE, end - off));
	app_free(data);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_hexdump(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-s", SH_OPT_VALUE}, {"-n", SH_OPT_VALUE}, {NULL}};
	struct sh_args a;
	UINT64 skip = 0, length = ~0ULL;
	const CHAR16 *v;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if ((v = sh_args_value(&a, "-s")) && !sh_parse_u64(v, false, &skip)) {
		sh_error(sh, "hexdump: -s needs a number, not '%ls'\n", v);
		return EFI_INVALID_PARAMETER;
	}
	if ((v = sh_args_value(&a, "-n")) && !sh_parse_u64(v, false, &length)) {
		sh_error(sh, "hexdump: -n needs a number, not '%ls'\n", v);
		return EFI_INVALID_PARAMETER;
	}
	if (a.count != 1) {
		sh_error(sh, "hexdump: name one file\n");
		return EFI_INVALID_PARAMETER;
	}
	return dump(sh, a.pos[0], skip, length);
}

SH_COMMAND(hexdump, "hexdump", "Shows the bytes of a file in hex",
	   "hexdump [-s offset] [-n length] file\n"
	   "  Prints 16 bytes per line: the offset, the bytes in hex (a '-' after the eighth)\n"
	   "  and the printable characters between asterisks.\n"
	   "  -s    starts at this byte offset (decimal, or hex with 0x)\n"
	   "  -n    shows at most this many bytes\n"
	   "  -b    pauses after each screenful\n",
	   cmd_hexdump);
