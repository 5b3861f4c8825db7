/* Option parsing for commands: options are sorted from positional words in place. */
#include "internal.h"

static int find_opt(const struct sh_opt *opts, const CHAR16 *word)
{
	for (int i = 0; opts && opts[i].name && i < 31; i++)
		if (sh_eq_ascii(word, opts[i].name))
			return i;
	return -1;
}

/* "-5" and "-0x10" are numbers, not options. */
static bool is_option(const CHAR16 *w)
{
	INT64 ignored;

	return w[0] == '-' && w[1] && !sh_parse_i64(w, &ignored);
}

EFI_STATUS sh_args_parse(struct shell *sh, UINTN argc, CHAR16 **argv, const struct sh_opt *opts,
			 struct sh_args *out)
{
	UINTN npos = 0;

	*out = (struct sh_args){.pos = argv + 1, .opts = opts};
	for (UINTN i = 1; i < argc; i++) {
		CHAR16 *w = argv[i];
		int k;
		if (!is_option(w)) {
			/* Keep positional words in order at the front; options go behind. */
			mem_copy(&argv[2 + npos], &argv[1 + npos],
				 (i - 1 - npos) * sizeof(CHAR16 *));
			argv[1 + npos++] = w;
			continue;
		}
		k = find_opt(opts, w);
		if (k < 0 && sh_eq_ascii(w, "-b")) {
			sh_page_break(sh, true);
			continue;
		}
		if (k < 0) {
			sh_error(sh, "%ls: unknown option '%ls'\n", argv[0], w);
			return EFI_INVALID_PARAMETER;
		}
		out->present |= 1u << k;
		if (opts[k].kind == SH_OPT_VALUE) {
			if (i + 1 >= argc) {
				sh_error(sh, "%ls: option %ls needs a value\n", argv[0], w);
				return EFI_INVALID_PARAMETER;
			}
			out->values[k] = argv[++i];
		}
	}
	out->count = npos;
	return EFI_SUCCESS;
}

bool sh_args_has(const struct sh_args *a, const char *name)
{
	for (int i = 0; a->opts && a->opts[i].name && i < 31; i++)
		if (str8_cmp(a->opts[i].name, name) == 0)
			return (a->present >> i) & 1;
	return false;
}

const CHAR16 *sh_args_value(const struct sh_args *a, const char *name)
{
	for (int i = 0; a->opts && a->opts[i].name && i < 31; i++)
		if (str8_cmp(a->opts[i].name, name) == 0)
			return (a->present >> i) & 1 ? a->values[i] : NULL;
	return NULL;
}
