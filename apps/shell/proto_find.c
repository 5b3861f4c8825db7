/* EFI_SHELL_PROTOCOL: file lists (FindFiles, FindFilesInDir, OpenFileList and their
 * release). A list is reached through a head entry whose Link is the circular list's head;
 * every entry, head included, and its strings and info come from pool. */
#include "internal.h"

static void list_init(EFI_LIST_ENTRY *head)
{
	head->ForwardLink = head->BackLink = head;
}

static void list_add_tail(EFI_LIST_ENTRY *head, EFI_LIST_ENTRY *e)
{
	e->BackLink = head->BackLink;
	e->ForwardLink = head;
	head->BackLink->ForwardLink = e;
	head->BackLink = e;
}

static void list_remove(EFI_LIST_ENTRY *e)
{
	e->BackLink->ForwardLink = e->ForwardLink;
	e->ForwardLink->BackLink = e->BackLink;
}

static EFI_SHELL_FILE_INFO *new_head(void)
{
	EFI_SHELL_FILE_INFO *head = app_zalloc(sizeof(*head));

	if (head)
		list_init(&head->Link);
	return head;
}

static void entry_free(EFI_SHELL_FILE_INFO *e)
{
	if (e->Handle)
		((EFI_FILE_PROTOCOL *)e->Handle)->Close(e->Handle);
	app_free((void *)e->FullName);
	app_free((void *)e->FileName);
	app_free(e->Info);
	app_free(e);
}

/* Adds an entry for full (copied; name is its last component); takes info. */
static EFI_STATUS add_entry(EFI_SHELL_FILE_INFO *head, const CHAR16 *full, const CHAR16 *name,
			    EFI_FILE_INFO *info)
{
	EFI_SHELL_FILE_INFO *e = app_zalloc(sizeof(*e));

	if (!e || !(e->FullName = sh_strdup16(full)) || !(e->FileName = sh_strdup16(name))) {
		if (e) {
			app_free((void *)e->FullName);
			app_free(e);
		}
		app_free(info);
		return EFI_OUT_OF_RESOURCES;
	}
	e->Info = info;
	e->Status = EFI_SUCCESS;
	list_add_tail(&head->Link, &e->Link);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI shell_free_file_list(EFI_SHELL_FILE_INFO **list)
{
	EFI_SHELL_FILE_INFO *head;

	if (!list || !*list)
		return EFI_INVALID_PARAMETER;
	head = *list;
	while (head->Link.ForwardLink != &head->Link) {
		EFI_SHELL_FILE_INFO *e = (EFI_SHELL_FILE_INFO *)head->Link.ForwardLink;
		list_remove(&e->Link);
		entry_free(e);
	}
	app_free(head);
	*list = NULL;
	return EFI_SUCCESS;
}

/* Appends the matches of pattern to *list (made when NULL); opens them when mode != 0. */
static EFI_STATUS find_into(const CHAR16 *pattern, UINT64 mode, EFI_SHELL_FILE_INFO **list)
{
	struct shell *sh = shell_self;
	struct sh_match *m;
	UINTN count;
	EFI_STATUS status = sh_glob(sh, pattern, &m, &count);

	if (EFI_ERROR(status))
		return status;
	if (!*list && !(*list = new_head()))
		status = EFI_OUT_OF_RESOURCES;
	for (UINTN i = 0; i < count && !EFI_ERROR(status); i++) {
		status = add_entry(*list, m[i].full, m[i].name, m[i].info);
		m[i].info = NULL;
		if (!EFI_ERROR(status) && mode) {
			EFI_SHELL_FILE_INFO *e = (EFI_SHELL_FILE_INFO *)(*list)->Link.BackLink;
			EFI_FILE_PROTOCOL *f = NULL;
			e->Status = sh_open(sh, m[i].full, mode, 0, &f);
			e->Handle = f;
		}
	}
	sh_glob_free(m, count);
	return status;
}

static EFI_STATUS EFIAPI shell_find_files(CONST CHAR16 *pattern, EFI_SHELL_FILE_INFO **list)
{
	EFI_STATUS status;

	if (!pattern || !list)
		return EFI_INVALID_PARAMETER;
	*list = NULL;
	status = find_into(pattern, 0, list);
	if (EFI_ERROR(status) && *list)
		shell_free_file_list(list);
	return status;
}

static EFI_STATUS EFIAPI shell_open_file_list(CHAR16 *path, UINT64 mode, EFI_SHELL_FILE_INFO **list)
{
	if (!path || !list)
		return EFI_INVALID_PARAMETER;
	return find_into(path, mode, list);
}

/* Entries of an open directory; their names are given relative to it. */
static EFI_STATUS EFIAPI shell_find_files_in_dir(SHELL_FILE_HANDLE dir, EFI_SHELL_FILE_INFO **list)
{
	EFI_SHELL_FILE_INFO *head;
	EFI_FILE_INFO *info;
	EFI_STATUS status;

	if (!dir || !list)
		return EFI_INVALID_PARAMETER;
	*list = NULL;
	head = new_head();
	if (!head)
		return EFI_OUT_OF_RESOURCES;
	((EFI_FILE_PROTOCOL *)dir)->SetPosition(dir, 0);
	while (!EFI_ERROR(status = sh_dir_next(dir, &info)) && info) {
		status = add_entry(head, info->FileName, info->FileName, info);
		if (EFI_ERROR(status))
			break;
	}
	if (EFI_ERROR(status) || head->Link.ForwardLink == &head->Link) {
		shell_free_file_list(&head);
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	}
	*list = head;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI shell_remove_dups(EFI_SHELL_FILE_INFO **list)
{
	EFI_LIST_ENTRY *head, *a;

	if (!list || !*list)
		return EFI_INVALID_PARAMETER;
	head = &(*list)->Link;
	for (a = head->ForwardLink; a != head; a = a->ForwardLink) {
		EFI_LIST_ENTRY *b = a->ForwardLink;
		while (b != head) {
			EFI_LIST_ENTRY *next = b->ForwardLink;
			if (sh_eq_nocase(((EFI_SHELL_FILE_INFO *)a)->FullName,
					 ((EFI_SHELL_FILE_INFO *)b)->FullName)) {
				list_remove(b);
				entry_free((EFI_SHELL_FILE_INFO *)b);
			}
			b = next;
		}
	}
	return EFI_SUCCESS;
}

void sh_protocol_fill_find(EFI_SHELL_PROTOCOL *p)
{
	p->FindFiles = shell_find_files;
	p->FindFilesInDir = shell_find_files_in_dir;
	p->OpenFileList = shell_open_file_list;
	p->FreeFileList = shell_free_file_list;
	p->RemoveDupInFileList = shell_remove_dups;
}
