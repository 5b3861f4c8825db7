/* A shell application as third-party software writes it (gnu-efi): it takes its arguments
 * from EFI_SHELL_PARAMETERS_PROTOCOL and uses EFI_SHELL_PROTOCOL. The first argument picks
 * what it does; it prints what it finds, for the shell's integration tests:
 *   args | env NAME | setenv NAME VALUE | cwd | files PATTERN | write NAME TEXT |
 *   read NAME | delete NAME | exec COMMAND... | status HEX | stdout TEXT | info |
 *   map FSNAME | alias NAME */
#include <efi.h>
#include <efilib.h>
#include <efishell.h>

static EFI_SHELL_PROTOCOL *shell;
static EFI_SHELL_PARAMETERS_PROTOCOL *params;
static EFI_HANDLE self;

#define CALL(fn, n, ...) uefi_call_wrapper((void *)(fn), n, __VA_ARGS__)
#define CALL0(fn) uefi_call_wrapper((void *)(fn), 0)

static UINT64 hex(CHAR16 *s)
{
	UINT64 v = 0;

	if (s[0] == L'0' && (s[1] == L'x' || s[1] == L'X'))
		s += 2;
	for (; *s; s++)
		v = v * 16 + (*s <= L'9' ? *s - L'0' : (*s | 0x20) - L'a' + 10);
	return v;
}

static void show_files(CHAR16 *pattern)
{
	EFI_SHELL_FILE_INFO *list = NULL;
	EFI_STATUS status = CALL(shell->FindFiles, 2, pattern, &list);
	LIST_ENTRY *head, *e;

	Print(L"FindFiles: %r\n", status);
	if (EFI_ERROR(status))
		return;
	head = &list->Link;
	for (e = head->Flink; e != head; e = e->Flink)
		Print(L"file %s (%s)\n", ((EFI_SHELL_FILE_INFO *)e)->FullName,
		      ((EFI_SHELL_FILE_INFO *)e)->FileName);
	Print(L"FreeFileList: %r\n", CALL(shell->FreeFileList, 1, &list));
}

static void write_file(CHAR16 *name, CHAR16 *text)
{
	SHELL_FILE_HANDLE f;
	CHAR8 buf[256];
	UINTN n = 0;
	EFI_STATUS status = CALL(shell->CreateFile, 3, name, 0, &f);

	Print(L"CreateFile: %r\n", status);
	if (EFI_ERROR(status))
		return;
	while (text[n] && n < sizeof(buf))
		buf[n] = (CHAR8)text[n], n++;
	Print(L"WriteFile: %r (%d bytes)\n", CALL(shell->WriteFile, 3, f, &n, buf), n);
	Print(L"CloseFile: %r\n", CALL(shell->CloseFile, 1, f));
}

static void read_file(CHAR16 *name)
{
	SHELL_FILE_HANDLE f;
	CHAR8 buf[256];
	UINT64 size = 0;
	UINTN n = sizeof(buf) - 1;
	EFI_STATUS status = CALL(shell->OpenFileByName, 3, name, &f, EFI_FILE_MODE_READ);

	Print(L"OpenFileByName: %r\n", status);
	if (EFI_ERROR(status))
		return;
	CALL(shell->GetFileSize, 2, f, &size);
	status = CALL(shell->ReadFile, 3, f, &n, buf);
	buf[n] = 0;
	Print(L"size %ld, ReadFile: %r, data [%a]\n", size, status, buf);
	CALL(shell->CloseFile, 1, f);
}

static void exec(CHAR16 **argv, UINTN argc)
{
	CHAR16 line[256];
	EFI_STATUS code = 0, status;

	line[0] = 0;
	for (UINTN i = 0; i < argc; i++) {
		if (i)
			StrCat(line, L" ");
		StrCat(line, argv[i]);
	}
	status = CALL(shell->Execute, 4, &self, line, NULL, &code);
	Print(L"Execute: %r, command returned %r\n", status, code);
}

static void map(CHAR16 *name)
{
	CONST EFI_DEVICE_PATH *dp = (void *)CALL(shell->GetDevicePathFromMap, 1, name);
	EFI_DEVICE_PATH *walk = (EFI_DEVICE_PATH *)dp, *file;
	CONST CHAR16 *back;
	CHAR16 path[64], *text;

	Print(L"GetDevicePathFromMap: %s\n", dp ? L"found" : L"none");
	if (!dp)
		return;
	back = (void *)CALL(shell->GetMapFromDevicePath, 1, &walk);
	Print(L"GetMapFromDevicePath: %s, rest is end: %d\n", back, IsDevicePathEnd(walk));
	SPrint(path, sizeof(path), L"%s\\dir\\x.efi", name);
	file = (void *)CALL(shell->GetDevicePathFromFilePath, 1, path);
	text = file ? (void *)CALL(shell->GetFilePathFromDevicePath, 1, file) : NULL;
	Print(L"file path round trip: %s\n", text ? text : L"(failed)");
}

static void info(void)
{
	Print(L"version %d.%d batch %d root %d pagebreak %d\n", shell->MajorVersion,
	      shell->MinorVersion, (int)(UINT8)CALL0(shell->BatchIsActive),
	      (int)(UINT8)CALL0(shell->IsRootShell), (int)(UINT8)CALL0(shell->GetPageBreak));
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	CHAR16 **argv;
	UINTN argc;

	InitializeLib(image, systab);
	self = image;
	if (EFI_ERROR(CALL(BS->LocateProtocol, 3, &ShellProtocolGuid, NULL, (void **)&shell)) ||
	    EFI_ERROR(CALL(BS->HandleProtocol, 3, image, &ShellParametersProtocolGuid,
			   (void **)&params))) {
		Print(L"no shell protocols\n");
		return EFI_UNSUPPORTED;
	}
	argv = params->Argv;
	argc = params->Argc;
	if (argc < 2 || !StrCmp(argv[1], L"args")) {
		Print(L"argc %d\n", argc);
		for (UINTN i = 0; i < argc; i++)
			Print(L"argv[%d] [%s]\n", i, argv[i]);
	} else if (!StrCmp(argv[1], L"env") && argc > 2) {
		CONST CHAR16 *v = (void *)CALL(shell->GetEnv, 1, argv[2]);
		Print(L"env %s = %s\n", argv[2], v ? v : L"(unset)");
	} else if (!StrCmp(argv[1], L"setenv") && argc > 3) {
		Print(L"SetEnv: %r\n", CALL(shell->SetEnv, 3, argv[2], argv[3], TRUE));
	} else if (!StrCmp(argv[1], L"cwd")) {
		Print(L"cwd %s\n", (CHAR16 *)CALL(shell->GetCurDir, 1, NULL));
	} else if (!StrCmp(argv[1], L"files") && argc > 2) {
		show_files(argv[2]);
	} else if (!StrCmp(argv[1], L"write") && argc > 3) {
		write_file(argv[2], argv[3]);
	} else if (!StrCmp(argv[1], L"read") && argc > 2) {
		read_file(argv[2]);
	} else if (!StrCmp(argv[1], L"delete") && argc > 2) {
		Print(L"DeleteFileByName: %r\n", CALL(shell->DeleteFileByName, 1, argv[2]));
	} else if (!StrCmp(argv[1], L"exec") && argc > 2) {
		exec(argv + 2, argc - 2);
	} else if (!StrCmp(argv[1], L"status") && argc > 2) {
		return (EFI_STATUS)hex(argv[2]);
	} else if (!StrCmp(argv[1], L"stdout") && argc > 2) {
		UINTN n = StrLen(argv[2]) * sizeof(CHAR16);
		CALL(shell->WriteFile, 3, params->StdOut, &n, argv[2]);
		n = 2 * sizeof(CHAR16);
		CALL(shell->WriteFile, 3, params->StdOut, &n, L"\r\n");
	} else if (!StrCmp(argv[1], L"info")) {
		info();
	} else if (!StrCmp(argv[1], L"map") && argc > 2) {
		map(argv[2]);
	} else if (!StrCmp(argv[1], L"alias") && argc > 2) {
		CONST CHAR16 *v = (void *)CALL(shell->GetAlias, 2, argv[2], NULL);
		Print(L"alias %s = %s\n", argv[2], v ? v : L"(none)");
	} else {
		Print(L"unknown request %s\n", argv[1]);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}
