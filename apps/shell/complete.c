/* Tab completion candidates: file names in the directory the word names, and for the first
 * word of a command also command names and aliases. */
#include "internal.h"

static bool has_prefix(const CHAR16 *name, const CHAR16 *prefix)
{
	size_t n = str16_len(prefix);

	return str16_len(name) >= n && sh_eqn_nocase(name, n, prefix);
}

/* Adds dir + name unless it is there already. */
static void add(struct sh_strv *out, const CHAR16 *dir, size_t dir_len, const CHAR16 *name)
{
	struct sh_buf b;
	CHAR16 *s;

	sh_buf_init(&b);
	sh_buf_put(&b, dir, dir_len);
	sh_buf_puts(&b, name);
	s = sh_buf_take(&b);
	for (size_t i = 0; s && i < out->count; i++)
		if (sh_eq_nocase(out->v[i], s)) {
			app_free(s);
			return;
		}
	sh_strv_push(out, s);
}

static void add_files(struct shell *sh, const CHAR16 *word, size_t split, struct sh_strv *out)
{
	CHAR16 *dir_name = sh_strndup16(word, split);
	EFI_FILE_PROTOCOL *dir;
	EFI_FILE_INFO *info;

	if (!dir_name)
		return;
	if (!EFI_ERROR(sh_open(sh, dir_name[0] ? dir_name : u".", EFI_FILE_MODE_READ, 0, &dir))) {
		while (!EFI_ERROR(sh_dir_next(dir, &info)) && info) {
			if (has_prefix(info->FileName, word + split))
				add(out, word, split, info->FileName);
			app_free(info);
		}
		dir->Close(dir);
	}
	app_free(dir_name);
}

static void add_commands(struct shell *sh, const CHAR16 *word, struct sh_strv *out)
{
	const struct sh_command *cmds[256];
	UINTN n = MIN(sh_command_list(cmds, ARRAY_SIZE(cmds)), ARRAY_SIZE(cmds));

	for (UINTN i = 0; i < n; i++) {
		CHAR16 *name = sh_strdup_ascii(cmds[i]->name);
		if (name && has_prefix(name, word))
			add(out, NULL, 0, name);
		app_free(name);
	}
	for (struct sh_var *a = sh->aliases; a; a = a->next)
		if (has_prefix(a->name, word))
			add(out, NULL, 0, a->name);
}

static void sort(struct sh_strv *out)
{
	for (size_t i = 1; i < out->count; i++)
		for (size_t j = i; j > 0 && sh_cmp_nocase(out->v[j - 1], out->v[j]) > 0; j--) {
			CHAR16 *t = out->v[j];
			out->v[j] = out->v[j - 1];
			out->v[j - 1] = t;
		}
}

EFI_STATUS sh_complete_candidates(struct shell *sh, const CHAR16 *word, bool command,
				  struct sh_strv *out)
{
	size_t split = 0;

	sh_strv_init(out);
	for (size_t i = 0; word[i]; i++)
		if (word[i] == '\\' || word[i] == '/' || word[i] == ':')
			split = i + 1;
	if (command && !split)
		add_commands(sh, word, out);
	add_files(sh, word, split, out);
	sort(out);
	if (out->failed) {
		sh_strv_free(out);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}
