/* EFI_SHELL_PROTOCOL (UEFI Shell Specification 2.2, section 2.2): the services a UEFI shell
 * offers the programs it runs (environment, aliases, mappings, current directories, files,
 * nested execution). None of its functions takes a This pointer: there is one shell. */
#ifndef EFI_PROTOCOL_SHELL_H
#define EFI_PROTOCOL_SHELL_H

#include <efi/protocol/device_path.h>
#include <efi/protocol/shell_parameters.h>
#include <efi/protocol/simple_file_system.h>

#define EFI_SHELL_PROTOCOL_GUID                                                                    \
	EFI_GUID_INIT(0x6302d008, 0x7f9b, 0x4f30, 0x87, 0xac, 0x60, 0xc9, 0xfe, 0xf5, 0xda, 0x4e)

/* The vendor GUID of non-volatile shell environment variables kept as UEFI variables. */
#define EFI_SHELL_VARIABLE_GUID                                                                    \
	EFI_GUID_INIT(0x158def5a, 0xf656, 0x419c, 0xb0, 0x27, 0x7a, 0x31, 0x92, 0xc0, 0x79, 0xd2)
/* The vendor GUID of non-volatile aliases. */
#define EFI_SHELL_ALIAS_GUID                                                                       \
	EFI_GUID_INIT(0x0053d9d6, 0x2659, 0x4599, 0xa2, 0x6b, 0xef, 0x45, 0x36, 0xe6, 0x31, 0xa9)

#define EFI_SHELL_MAJOR_VERSION 2
#define EFI_SHELL_MINOR_VERSION 2

/* A doubly linked list link (the shell specification's EFI_LIST_ENTRY). */
typedef struct _EFI_LIST_ENTRY {
	struct _EFI_LIST_ENTRY *ForwardLink;
	struct _EFI_LIST_ENTRY *BackLink;
} EFI_LIST_ENTRY;

/* One file of a list from FindFiles/OpenFileList. A list is reached through a head entry
 * whose Link is the list's head; the files are the entries linked after it. */
typedef struct {
	EFI_LIST_ENTRY Link;
	EFI_STATUS Status; /* of opening the file (OpenFileList) */
	CONST CHAR16 *FullName;
	CONST CHAR16 *FileName;
	SHELL_FILE_HANDLE Handle; /* NULL when not open */
	EFI_FILE_INFO *Info;
} EFI_SHELL_FILE_INFO;
_Static_assert(sizeof(EFI_SHELL_FILE_INFO) == 56, "EFI_SHELL_FILE_INFO layout");

typedef UINT32 EFI_SHELL_DEVICE_NAME_FLAGS;
#define EFI_DEVICE_NAME_USE_COMPONENT_NAME 0x00000001
#define EFI_DEVICE_NAME_USE_DEVICE_PATH 0x00000002

typedef EFI_STATUS(EFIAPI *EFI_SHELL_EXECUTE)(EFI_HANDLE *ParentImageHandle, CHAR16 *CommandLine,
					      CHAR16 **Environment, EFI_STATUS *StatusCode);
typedef CONST CHAR16 *(EFIAPI *EFI_SHELL_GET_ENV)(CONST CHAR16 *Name);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_ENV)(CONST CHAR16 *Name, CONST CHAR16 *Value,
					      BOOLEAN Volatile);
typedef CONST CHAR16 *(EFIAPI *EFI_SHELL_GET_ALIAS)(CONST CHAR16 *Alias, BOOLEAN *Volatile);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_ALIAS)(CONST CHAR16 *Command, CONST CHAR16 *Alias,
						BOOLEAN Replace, BOOLEAN Volatile);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_HELP_TEXT)(CONST CHAR16 *Command, CONST CHAR16 *Sections,
						    CHAR16 **HelpText);
typedef CONST
    EFI_DEVICE_PATH_PROTOCOL *(EFIAPI *EFI_SHELL_GET_DEVICE_PATH_FROM_MAP)(CONST CHAR16 *Mapping);
typedef CONST CHAR16 *(EFIAPI *EFI_SHELL_GET_MAP_FROM_DEVICE_PATH)(
    EFI_DEVICE_PATH_PROTOCOL **DevicePath);
typedef EFI_DEVICE_PATH_PROTOCOL *(EFIAPI *EFI_SHELL_GET_DEVICE_PATH_FROM_FILE_PATH)(
    CONST CHAR16 *Path);
typedef CHAR16 *(EFIAPI *EFI_SHELL_GET_FILE_PATH_FROM_DEVICE_PATH)(
    CONST EFI_DEVICE_PATH_PROTOCOL *Path);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_MAP)(CONST EFI_DEVICE_PATH_PROTOCOL *DevicePath,
					      CONST CHAR16 *Mapping);
typedef CONST CHAR16 *(EFIAPI *EFI_SHELL_GET_CUR_DIR)(CONST CHAR16 *FileSystemMapping);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_CUR_DIR)(CONST CHAR16 *FileSystem, CONST CHAR16 *Dir);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_OPEN_FILE_LIST)(CHAR16 *Path, UINT64 OpenMode,
						     EFI_SHELL_FILE_INFO **FileList);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_FREE_FILE_LIST)(EFI_SHELL_FILE_INFO **FileList);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_REMOVE_DUP_IN_FILE_LIST)(EFI_SHELL_FILE_INFO **FileList);
typedef BOOLEAN(EFIAPI *EFI_SHELL_BATCH_IS_ACTIVE)(VOID);
typedef BOOLEAN(EFIAPI *EFI_SHELL_IS_ROOT_SHELL)(VOID);
typedef VOID(EFIAPI *EFI_SHELL_ENABLE_PAGE_BREAK)(VOID);
typedef VOID(EFIAPI *EFI_SHELL_DISABLE_PAGE_BREAK)(VOID);
typedef BOOLEAN(EFIAPI *EFI_SHELL_GET_PAGE_BREAK)(VOID);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_DEVICE_NAME)(EFI_HANDLE DeviceHandle,
						      EFI_SHELL_DEVICE_NAME_FLAGS Flags,
						      CHAR8 *Language, CHAR16 **BestDeviceName);
typedef EFI_FILE_INFO *(EFIAPI *EFI_SHELL_GET_FILE_INFO)(SHELL_FILE_HANDLE FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_FILE_INFO)(SHELL_FILE_HANDLE FileHandle,
						    CONST EFI_FILE_INFO *FileInfo);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_OPEN_FILE_BY_NAME)(CONST CHAR16 *FileName,
							SHELL_FILE_HANDLE *FileHandle,
							UINT64 OpenMode);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_CLOSE_FILE)(SHELL_FILE_HANDLE FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_CREATE_FILE)(CONST CHAR16 *FileName, UINT64 FileAttribs,
						  SHELL_FILE_HANDLE *FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_READ_FILE)(SHELL_FILE_HANDLE FileHandle, UINTN *ReadSize,
						VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_WRITE_FILE)(SHELL_FILE_HANDLE FileHandle, UINTN *BufferSize,
						 VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_DELETE_FILE)(SHELL_FILE_HANDLE FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_DELETE_FILE_BY_NAME)(CONST CHAR16 *FileName);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_FILE_POSITION)(SHELL_FILE_HANDLE FileHandle,
							UINT64 *Position);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_SET_FILE_POSITION)(SHELL_FILE_HANDLE FileHandle,
							UINT64 Position);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_FLUSH_FILE)(SHELL_FILE_HANDLE FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_FIND_FILES)(CONST CHAR16 *FilePattern,
						 EFI_SHELL_FILE_INFO **FileList);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_FIND_FILES_IN_DIR)(SHELL_FILE_HANDLE FileDirHandle,
							EFI_SHELL_FILE_INFO **FileList);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_FILE_SIZE)(SHELL_FILE_HANDLE FileHandle, UINT64 *Size);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_OPEN_ROOT)(EFI_DEVICE_PATH_PROTOCOL *DevicePath,
						SHELL_FILE_HANDLE *FileHandle);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_OPEN_ROOT_BY_HANDLE)(EFI_HANDLE DeviceHandle,
							  SHELL_FILE_HANDLE *FileHandle);
/* Shell 2.1 and later (check MajorVersion/MinorVersion before using these). */
typedef EFI_STATUS(EFIAPI *EFI_SHELL_REGISTER_GUID_NAME)(CONST EFI_GUID *Guid,
							 CONST CHAR16 *GuidName);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_GUID_NAME)(CONST EFI_GUID *Guid, CONST CHAR16 **GuidName);
typedef EFI_STATUS(EFIAPI *EFI_SHELL_GET_GUID_FROM_NAME)(CONST CHAR16 *GuidName, EFI_GUID *Guid);
typedef CONST CHAR16 *(EFIAPI *EFI_SHELL_GET_ENV_EX)(CONST CHAR16 *Name, UINT32 *Attributes);

typedef struct _EFI_SHELL_PROTOCOL {
	EFI_SHELL_EXECUTE Execute;
	EFI_SHELL_GET_ENV GetEnv;
	EFI_SHELL_SET_ENV SetEnv;
	EFI_SHELL_GET_ALIAS GetAlias;
	EFI_SHELL_SET_ALIAS SetAlias;
	EFI_SHELL_GET_HELP_TEXT GetHelpText;
	EFI_SHELL_GET_DEVICE_PATH_FROM_MAP GetDevicePathFromMap;
	EFI_SHELL_GET_MAP_FROM_DEVICE_PATH GetMapFromDevicePath;
	EFI_SHELL_GET_DEVICE_PATH_FROM_FILE_PATH GetDevicePathFromFilePath;
	EFI_SHELL_GET_FILE_PATH_FROM_DEVICE_PATH GetFilePathFromDevicePath;
	EFI_SHELL_SET_MAP SetMap;
	EFI_SHELL_GET_CUR_DIR GetCurDir;
	EFI_SHELL_SET_CUR_DIR SetCurDir;
	EFI_SHELL_OPEN_FILE_LIST OpenFileList;
	EFI_SHELL_FREE_FILE_LIST FreeFileList;
	EFI_SHELL_REMOVE_DUP_IN_FILE_LIST RemoveDupInFileList;
	EFI_SHELL_BATCH_IS_ACTIVE BatchIsActive;
	EFI_SHELL_IS_ROOT_SHELL IsRootShell;
	EFI_SHELL_ENABLE_PAGE_BREAK EnablePageBreak;
	EFI_SHELL_DISABLE_PAGE_BREAK DisablePageBreak;
	EFI_SHELL_GET_PAGE_BREAK GetPageBreak;
	EFI_SHELL_GET_DEVICE_NAME GetDeviceName;
	EFI_SHELL_GET_FILE_INFO GetFileInfo;
	EFI_SHELL_SET_FILE_INFO SetFileInfo;
	EFI_SHELL_OPEN_FILE_BY_NAME OpenFileByName;
	EFI_SHELL_CLOSE_FILE CloseFile;
	EFI_SHELL_CREATE_FILE CreateFile;
	EFI_SHELL_READ_FILE ReadFile;
	EFI_SHELL_WRITE_FILE WriteFile;
	EFI_SHELL_DELETE_FILE DeleteFile;
	EFI_SHELL_DELETE_FILE_BY_NAME DeleteFileByName;
	EFI_SHELL_GET_FILE_POSITION GetFilePosition;
	EFI_SHELL_SET_FILE_POSITION SetFilePosition;
	EFI_SHELL_FLUSH_FILE FlushFile;
	EFI_SHELL_FIND_FILES FindFiles;
	EFI_SHELL_FIND_FILES_IN_DIR FindFilesInDir;
	EFI_SHELL_GET_FILE_SIZE GetFileSize;
	EFI_SHELL_OPEN_ROOT OpenRoot;
	EFI_SHELL_OPEN_ROOT_BY_HANDLE OpenRootByHandle;
	EFI_EVENT ExecutionBreak; /* signalled when the user asks to stop (Ctrl-C) */
	UINT32 MajorVersion;
	UINT32 MinorVersion;
	EFI_SHELL_REGISTER_GUID_NAME RegisterGuidName;
	EFI_SHELL_GET_GUID_NAME GetGuidName;
	EFI_SHELL_GET_GUID_FROM_NAME GetGuidFromName;
	EFI_SHELL_GET_ENV_EX GetEnvEx;
} EFI_SHELL_PROTOCOL;
_Static_assert(offsetof(EFI_SHELL_PROTOCOL, ExecutionBreak) == 39 * 8, "EFI_SHELL layout");
_Static_assert(sizeof(EFI_SHELL_PROTOCOL) == 45 * 8, "EFI_SHELL_PROTOCOL layout");

#endif
