/* Checks memory protection through EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10, 37.7), as
 * shim and the Linux EFI stub use it: its own code is read-only and executable, its data
 * non-executable; the argument checks; Set/Clear round trips on pages it allocates.
 * Prints "memory_protection: N passed, M failed" and powers off with EFI_SUCCESS only when
 * all passed (EFI_UNSUPPORTED when the firmware has no such protocol), so a run on OVMF
 * ends as soon as it is done.
 * With the argument "write-code" it writes to its own code, with "write-firmware" to the
 * firmware's (AllocatePool's first instruction), with "set-ro" it clears XP on a page of
 * EfiBootServicesData, runs code there, sets RO on it and writes to it, with "jump-data" it calls
 * into its own data, with "jump-pool" into pool memory (EfiBootServicesData): each must
 * fault, so "still running" is never printed. With "after-exit" it calls ExitBootServices,
 * then runs code it copies into memory that was free and writes to its own code, as OS
 * loaders do (GRUB's relocator): that must work, and it powers off with EFI_SUCCESS. */
#include <efi.h>
#include <efilib.h>

#define MEMATTR_GUID                                                                               \
	{                                                                                          \
		0xf4560cf6, 0x40ec, 0x4b4a,                                                        \
		{                                                                                  \
			0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89                             \
		}                                                                                  \
	}
#define MEM_RP 0x2000ULL
#define MEM_XP 0x4000ULL
#define MEM_RO 0x20000ULL
#define PAGE 4096ULL
#if defined(__aarch64__)
#define RET_BYTES 0xc0, 0x03, 0x5f, 0xd6 /* ret */
#else
#define RET_BYTES 0xc3 /* ret */
#endif

typedef struct memattr {
	EFI_STATUS(EFIAPI *get)(struct memattr *, EFI_PHYSICAL_ADDRESS, UINT64, UINT64 *);
	EFI_STATUS(EFIAPI *set)(struct memattr *, EFI_PHYSICAL_ADDRESS, UINT64, UINT64);
	EFI_STATUS(EFIAPI *clear)(struct memattr *, EFI_PHYSICAL_ADDRESS, UINT64, UINT64);
} MEMATTR;

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static MEMATTR *ma;
static int passed, failed;
/* In .data: a "ret" instruction the program may try to run. */
static UINT8 data_code[64] = {RET_BYTES};
static const UINT8 ret_code[] = {RET_BYTES};

static void check(BOOLEAN ok, CHAR16 *what, EFI_STATUS status, UINT64 value)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	Print(L"memory_protection: FAILED: %s (status %r, value 0x%lx)\n", what, status, value);
}

static EFI_STATUS get(EFI_PHYSICAL_ADDRESS base, UINT64 length, UINT64 *attributes)
{
	*attributes = 0xdead;
	return uefi_call_wrapper(ma->get, 4, ma, base, length, attributes);
}

static void own_image(void)
{
	EFI_PHYSICAL_ADDRESS code = (UINTN)efi_main & ~(PAGE - 1);
	EFI_PHYSICAL_ADDRESS data = (UINTN)data_code & ~(PAGE - 1);
	UINT64 a;
	EFI_STATUS s;

	s = get(code, PAGE, &a);
	check(s == EFI_SUCCESS && (a & MEM_RO) && !(a & MEM_XP), L"own code is RO, not XP", s, a);
	s = get(data, PAGE, &a);
	check(s == EFI_SUCCESS && (a & MEM_XP) && !(a & MEM_RO), L"own data is XP, not RO", s, a);
}

static void argument_checks(EFI_PHYSICAL_ADDRESS buffer)
{
	UINT64 a;
	EFI_STATUS s;

	s = get(buffer, 0, &a);
	check(s == EFI_INVALID_PARAMETER, L"Get with Length 0", s, 0);
	s = uefi_call_wrapper(ma->get, 4, ma, buffer, PAGE, NULL);
	check(s == EFI_INVALID_PARAMETER, L"Get with Attributes NULL", s, 0);
	s = uefi_call_wrapper(ma->set, 4, ma, buffer, 0, MEM_XP);
	check(s == EFI_INVALID_PARAMETER, L"Set with Length 0", s, 0);
	s = uefi_call_wrapper(ma->clear, 4, ma, buffer, 0, MEM_XP);
	check(s == EFI_INVALID_PARAMETER, L"Clear with Length 0", s, 0);
	s = uefi_call_wrapper(ma->set, 4, ma, buffer, PAGE, EFI_MEMORY_WB);
	check(s == EFI_INVALID_PARAMETER, L"Set of a cache attribute", s, 0);
	s = uefi_call_wrapper(ma->clear, 4, ma, buffer, PAGE, EFI_MEMORY_UC | MEM_XP);
	check(s == EFI_INVALID_PARAMETER, L"Clear with a cache attribute", s, 0);
}

static void expect(EFI_PHYSICAL_ADDRESS base, UINT64 length, UINT64 want, CHAR16 *what)
{
	UINT64 a;
	EFI_STATUS s = get(base, length, &a);

	check(s == EFI_SUCCESS && a == want, what, s, a);
}

static void round_trips(EFI_PHYSICAL_ADDRESS buffer)
{
	volatile UINT8 *p = (UINT8 *)(UINTN)buffer;
	UINT64 first, a;
	EFI_STATUS s;

	s = get(buffer, 2 * PAGE, &first);
	check(s == EFI_SUCCESS && !(first & (MEM_RO | MEM_RP)), L"new pages writable", s, first);
	first &= MEM_XP;
	s = uefi_call_wrapper(ma->set, 4, ma, buffer, 2 * PAGE, MEM_XP);
	check(s == EFI_SUCCESS, L"Set XP", s, 0);
	expect(buffer, 2 * PAGE, MEM_XP, L"Get after Set XP");
	s = uefi_call_wrapper(ma->set, 4, ma, buffer + PAGE, PAGE, MEM_RO);
	check(s == EFI_SUCCESS, L"Set RO on the second page", s, 0);
	expect(buffer + PAGE, PAGE, MEM_XP | MEM_RO, L"second page XP|RO");
	expect(buffer, PAGE, MEM_XP, L"first page still XP only");
	s = get(buffer, 2 * PAGE, &a);
	check(s == EFI_NO_MAPPING, L"Get across different pages: EFI_NO_MAPPING", s, a);
	p[0] = 0x5a; /* the first page stays writable */
	s = uefi_call_wrapper(ma->clear, 4, ma, buffer, 2 * PAGE, MEM_RO | MEM_XP);
	check(s == EFI_SUCCESS, L"Clear RO|XP", s, 0);
	expect(buffer, 2 * PAGE, 0, L"Get after Clear");
	p[PAGE] = 0xa5; /* writable again */
	if (first) {
		s = uefi_call_wrapper(ma->set, 4, ma, buffer, 2 * PAGE, first);
		check(s == EFI_SUCCESS, L"restore", s, 0);
	}
	check(p[0] == 0x5a && p[PAGE] == 0xa5, L"contents kept", 0, 0);
}

static void power_off(EFI_STATUS status)
{
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, status, 0, NULL);
}

/* The first page of the first free range of the memory map above 1 MiB, and the map key. */
static EFI_PHYSICAL_ADDRESS free_page(UINTN *key)
{
	static UINT8 map[64 * 1024];
	UINTN size = sizeof(map), descriptor_size;
	UINT32 version;

	if (EFI_ERROR(uefi_call_wrapper(BS->GetMemoryMap, 5, &size, (EFI_MEMORY_DESCRIPTOR *)map,
					key, &descriptor_size, &version)))
		return 0;
	for (UINTN at = 0; at + descriptor_size <= size; at += descriptor_size) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + at);
		if (d->Type == EfiConventionalMemory && d->PhysicalStart >= 0x100000)
			return d->PhysicalStart;
	}
	return 0;
}

/* After ExitBootServices memory is the loader's: code copied into it runs. */
static void after_exit(EFI_HANDLE image)
{
	EFI_PHYSICAL_ADDRESS page;
	UINTN key;

	for (int tries = 0; tries < 2; tries++) {
		page = free_page(&key);
		if (page && !EFI_ERROR(uefi_call_wrapper(BS->ExitBootServices, 2, image, key)))
			break;
		page = 0;
	}
	if (!page)
		return;
	CopyMem((void *)(UINTN)page, ret_code, sizeof(ret_code));
	((void (*)(void))(UINTN)page)();
	*(volatile UINT8 *)(UINTN)efi_main = 0xc3;
#ifdef __aarch64__
	/* The loader goes on in EL1h (SPSel 1), as loaders expect: Ember runs boot programs in
	 * EL1t, on SP_EL0, until ExitBootServices. */
	UINT64 spsel;
	__asm__ __volatile__("mrs %0, spsel" : "=r"(spsel));
	if (spsel != 1)
		power_off(EFI_ABORTED);
#endif
	power_off(EFI_SUCCESS);
}

static CHAR16 *argument(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li;
	CHAR16 *arg;

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
					(void **)&li)) ||
	    !li->LoadOptions)
		return L"";
	arg = li->LoadOptions;
	while (*arg && *arg != L' ')
		arg++;
	while (*arg == L' ')
		arg++;
	return arg;
}

/* What Clear and Set change really happens: code runs on a page once XP is cleared, and
 * a write to it faults once RO is set. */
static void set_ro(void)
{
	EFI_PHYSICAL_ADDRESS page;
	EFI_STATUS s;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiBootServicesData,
					1, &page)))
		return;
	CopyMem((void *)(UINTN)page, ret_code, sizeof(ret_code));
	s = uefi_call_wrapper(ma->clear, 4, ma, page, PAGE, MEM_XP);
	((void (*)(void))(UINTN)page)();
	Print(L"memory_protection: cleared XP (%r): ran code at 0x%lx\n", s, page);
	s = uefi_call_wrapper(ma->set, 4, ma, page, PAGE, MEM_RO);
	Print(L"memory_protection: set RO (%r): writing to 0x%lx\n", s, page);
	*(volatile UINT8 *)(UINTN)page = 0;
}

/* Faults the firmware must catch: a write to the program's own code, a call into data. */
static void misbehave(CHAR16 *arg)
{
	if (StrCmp(arg, L"write-code") == 0) {
		Print(L"memory_protection: writing to my code at 0x%lx\n", (UINTN)efi_main);
		*(volatile UINT8 *)(UINTN)efi_main = 0xcc;
	} else if (StrCmp(arg, L"write-firmware") == 0) {
		Print(L"memory_protection: writing to the firmware's code at 0x%lx\n",
		      (UINTN)BS->AllocatePool);
		*(volatile UINT8 *)(UINTN)BS->AllocatePool = 0;
	} else if (StrCmp(arg, L"set-ro") == 0) {
		set_ro();
	} else if (StrCmp(arg, L"jump-pool") == 0) {
		UINT8 *pool = NULL;
		uefi_call_wrapper(BS->AllocatePool, 3, EfiBootServicesData, 16, (void **)&pool);
		if (!pool)
			return;
		CopyMem(pool, ret_code, sizeof(ret_code));
		Print(L"memory_protection: calling pool memory at 0x%lx\n", (UINTN)pool);
		((void (*)(void))(UINTN)pool)();
	} else {
		Print(L"memory_protection: calling my data at 0x%lx\n", (UINTN)data_code);
		((void (*)(void))(UINTN)data_code)();
	}
	Print(L"memory_protection: still running\n");
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_GUID guid = MEMATTR_GUID;
	EFI_PHYSICAL_ADDRESS buffer;
	CHAR16 *arg;

	InitializeLib(image, systab);
	arg = argument(image);
	if (EFI_ERROR(uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&ma))) {
		Print(L"memory_protection: no EFI_MEMORY_ATTRIBUTE_PROTOCOL\n");
		power_off(EFI_UNSUPPORTED);
	}
	if (StrCmp(arg, L"after-exit") == 0) {
		after_exit(image);
		return EFI_LOAD_ERROR;
	}
	if (StrCmp(arg, L"write-code") == 0 || StrCmp(arg, L"write-firmware") == 0 ||
	    StrCmp(arg, L"set-ro") == 0 || StrCmp(arg, L"jump-data") == 0 ||
	    StrCmp(arg, L"jump-pool") == 0) {
		misbehave(arg);
		return EFI_SUCCESS;
	}
	own_image();
	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData, 2,
					&buffer))) {
		Print(L"memory_protection: no memory\n");
		return EFI_OUT_OF_RESOURCES;
	}
	argument_checks(buffer);
	round_trips(buffer);
	uefi_call_wrapper(BS->FreePages, 2, buffer, 2);
	Print(L"memory_protection: %d passed, %d failed\n", passed, failed);
	power_off(failed ? EFI_ABORTED : EFI_SUCCESS);
	return EFI_ABORTED;
}
