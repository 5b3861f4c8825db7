# Ember build. `make` builds everything, `make check` runs every test, `make bench`
# measures. Sources are found by directory, so adding a file never means editing this.

BUILD ?= build
CC := clang
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

# ---- Flags ----
WARN := -Wall -Wextra -Werror -Wmissing-prototypes -Wno-unused-parameter -Wno-missing-field-initializers
COMMON := -std=gnu11 -g -Iinclude $(WARN) -fno-strict-aliasing
HOST_CFLAGS := $(COMMON) -O2 -fno-omit-frame-pointer -D_GNU_SOURCE
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
ASAN_CFLAGS := $(COMMON) -O1 -fno-omit-frame-pointer -D_GNU_SOURCE $(SAN_FLAGS)
# make coverage: clang's source-based coverage of the host builds (scripts/coverage).
COV_CFLAGS := $(COMMON) -O1 -fno-omit-frame-pointer -D_GNU_SOURCE \
	-fprofile-instr-generate -fcoverage-mapping
FUZZ_CFLAGS := $(COMMON) -O1 -fno-omit-frame-pointer -D_GNU_SOURCE -DEMBER_FUZZING \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
# PE32+ applications: clang targeting UEFI's ABI, linked by lld as EFI applications.
# Firmware and applications are optimised for size (-Oz): they ride in the flash image (the
# code flash goal is 320 KiB), and their speed, measured in virtual time, hardly changes
# (the firmware's hot paths are built with -O2 below). One section per function and datum,
# so that the linkers drop what nothing reaches (lld-link's /OPT:REF is on without /DEBUG).
PE_CFLAGS := $(COMMON) -Oz --target=x86_64-unknown-windows -ffreestanding -fno-builtin \
	-fshort-wchar -mno-red-zone -fno-stack-protector -mno-stack-arg-probe -ffunction-sections \
	-fdata-sections
# QEMU firmware: freestanding ELF, position-independent code, linked at a fixed address.
FW_CFLAGS := $(COMMON) -Oz --target=x86_64-unknown-none-elf -ffreestanding -fno-builtin \
	-fno-stack-protector -mno-red-zone -fpie -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -Iplatform/qemu-x86_64 -ffunction-sections -fdata-sections
PE_LDFLAGS := --target=x86_64-unknown-windows -nostdlib -fuse-ld=lld \
	-Wl,-entry:efi_main -Wl,-subsystem:efi_application

# ---- Sources ----
find_c = $(shell find $(1) -name '*.c' 2>/dev/null | sort)
LIB_SRC := $(wildcard lib/*.c)
FREESTANDING_SRC := $(wildcard lib/freestanding/*.c)
CORE_SRC := $(call find_c,core) $(shell find core -name '*.S' 2>/dev/null | sort)
DRIVER_SRC := $(call find_c,drivers)
BDS_SRC := $(call find_c,bds)
SECURITY_SRC := $(call find_c,security)
VARSTORE_SRC := $(call find_c,varstore)
# net/: the network stack (pure packet layers, the PXE boot driver above SNP).
NET_SRC := $(call find_c,net)
# crypto/: Ember's glue over mbedTLS (crypto/libc: the few libc functions the library needs
# in the freestanding firmware; host builds take libc's).
CRYPTO_SRC := $(filter-out crypto/libc/%,$(call find_c,crypto))
CRYPTO_LIBC_SRC := $(call find_c,crypto/libc)
HOSTED_SRC := $(call find_c,platform/hosted) platform/common/clock.c
# The built-in 8x16 font: generated from a console font of the Debian package
# console-setup-linux (scripts/psf2c), never committed. Keep FONT_PSF the same as psf2c's
# DEFAULT_FONT: the tests render the expected screens from that one.
FONT_PSF := /usr/share/consolefonts/Uni2-VGA16.psf.gz
FONT_SRC := $(BUILD)/gen/font_8x16.c
# The boot logo: drawn by scripts/mklogo at build time (include/ember/core/boot_logo.h).
LOGO_SRC := $(BUILD)/gen/boot_logo.c
FIRMWARE_SRC := $(LIB_SRC) $(wildcard lib/x86_64/*.S) $(CORE_SRC) $(DRIVER_SRC) $(VARSTORE_SRC) $(BDS_SRC) \
	$(NET_SRC) $(SECURITY_SRC) $(CRYPTO_SRC) $(FONT_SRC) $(LOGO_SRC)
# Pure logic of applications (apps/NAME/pure/*.c: no UEFI calls, no libc) is compiled for
# the host too, into the unit tests and the fuzzers.
APP_PURE_SRC := $(sort $(wildcard apps/*/pure/*.c))
# The same for the QEMU platform's logic that touches no hardware (table loader, ACPI entry
# points, PS/2 decoding): platform/qemu-x86_64/pure; the table loader and the ACPI entry
# points are in platform/common, shared with AArch64, and so is the SMBIOS filter.
QEMU_SHARED_PURE_SRC := platform/common/qemu_loader.c platform/common/acpi_tables.c \
	platform/common/smbios_filter.c
QEMU_PURE_SRC := $(call find_c,platform/qemu-x86_64/pure) $(QEMU_SHARED_PURE_SRC)
# Host tools' own library (tools/lib: the UEFI compression encoder), tested the same way.
TOOLS_LIB_SRC := $(call find_c,tools/lib)
HOST_PURE_SRC := $(APP_PURE_SRC) $(QEMU_PURE_SRC) $(TOOLS_LIB_SRC)
UNIT_SRC := $(call find_c,tests/unit) $(HOST_PURE_SRC)
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
FUZZ_SUPPORT_SRC := tests/unit/support/plat_test.c
QEMU_SRC := $(filter-out platform/qemu-x86_64/reset/%,$(call find_c,platform/qemu-x86_64) $(shell find platform/qemu-x86_64 -name '*.S' 2>/dev/null | sort)) \
	platform/common/reset_log.c platform/common/fw_cfg.c platform/common/kernel.c \
	platform/common/qemu_loader_fw_cfg.c platform/common/smbios.c platform/common/bootorder.c \
	platform/common/qemu_ramfb.c \
	$(QEMU_SHARED_PURE_SRC)
APPS := $(filter-out lib,$(notdir $(wildcard apps/*)))
APP_LIB_SRC := $(wildcard apps/lib/*.c)
GNUEFI_PROGRAMS := $(basename $(notdir $(wildcard tests/programs/*.c)))

obj = $(patsubst %.S,$(BUILD)/$(1)/%.o,$(patsubst %.c,$(BUILD)/$(1)/%.o,$(2)))

EMBER_RUN := $(BUILD)/ember-run
FW_DIR := $(BUILD)/qemu-x86_64
FW_IMAGES := $(FW_DIR)/ember.fd $(FW_DIR)/ember-code.fd $(FW_DIR)/ember-vars.fd
EMBER_VARSTORE := $(BUILD)/ember-varstore
EMBER_COMPRESS := $(BUILD)/ember-compress
EMBER_FW := $(BUILD)/ember-fw
UNIT_TESTS := $(BUILD)/unit-tests
UNIT_TESTS_ASAN := $(BUILD)/unit-tests-asan
FUZZERS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
APP_EFIS := $(patsubst %,$(BUILD)/apps/%.efi,$(APPS)) $(BUILD)/apps/forms-driver.efi
PROGRAM_EFIS := $(patsubst %,$(BUILD)/tests/programs/%.efi,$(GNUEFI_PROGRAMS))

.PHONY: all deps firmware install check check-unit check-integration check-fuzz check-format check-aarch64 aarch64-objs coverage bench run clean format
all: $(EMBER_RUN) $(EMBER_VARSTORE) $(EMBER_COMPRESS) $(EMBER_FW) $(APP_EFIS) $(PROGRAM_EFIS) $(FW_IMAGES) $(FW_DIR)/ember-x86_64.json \
	$(FW_DIR)/ember-vars.ms.fd $(FW_DIR)/ember-x86_64-secboot.json

# Missing Debian packages are installed before anything is compiled (once per build dir).
DEPS_STAMP := $(BUILD)/.deps-installed
$(DEPS_STAMP): scripts/deps
	$(Q)scripts/deps
	@mkdir -p $(dir $@) && touch $@
deps: $(DEPS_STAMP)

# ---- mbedTLS: Debian's source package, fetched and unpacked once into the build directory
# (scripts/fetch-mbedtls), never committed; configured by crypto/mbedtls_config.h and
# compiled with each variant's flags, the library's warnings not made errors. ----
MBEDTLS_DIR := $(BUILD)/mbedtls
MBEDTLS_STAMP := $(MBEDTLS_DIR)/include/mbedtls/version.h
MBEDTLS_MODULES := asn1parse bignum constant_time md oid pk pk_wrap pkparse platform \
	platform_util rsa rsa_internal sha1 sha256 sha512 x509 x509_crt
MBEDTLS_SRC := $(patsubst %,$(MBEDTLS_DIR)/library/%.c,$(MBEDTLS_MODULES))
mbedtls_obj = $(patsubst %,$(BUILD)/$(1)/mbedtls/%.o,$(MBEDTLS_MODULES))
MBEDTLS_INC := -I$(MBEDTLS_DIR)/include -Icrypto -DMBEDTLS_CONFIG_FILE='"mbedtls_config.h"'
# The firmware has no libc headers: crypto/libc stands in for the few the library includes.
FW_LIBC_INC := -nostdlibinc -Icrypto/libc
lib_flags = $(filter-out -Werror -Wmissing-prototypes,$(1)) -Wno-error $(MBEDTLS_INC)
$(MBEDTLS_STAMP): scripts/fetch-mbedtls | $(DEPS_STAMP)
	$(Q)scripts/fetch-mbedtls $(MBEDTLS_DIR)
	@touch $@
$(MBEDTLS_SRC): | $(MBEDTLS_STAMP)
$(BUILD)/host/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(HOST_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/asan/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(ASAN_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/covobj/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(COV_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/fuzzobj/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(FUZZ_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/fw/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(FW_CFLAGS) $(FW_LIBC_INC)) -MMD -MP -c $< -o $@
# The digests run at -O2 in the firmware (verifying a signed kernel hashes it whole); the
# rest stays small (-Oz: RSA verification with e = 65537 is a few multiplications).
$(patsubst %,$(BUILD)/fw/mbedtls/%.o,sha1 sha256 sha512): FW_CFLAGS += -O2
# Ember's glue includes the library's headers.
$(foreach v,host asan covobj fuzzobj fw,$(call obj,$(v),$(CRYPTO_SRC))): | $(MBEDTLS_STAMP)
$(call obj,host,$(CRYPTO_SRC)): HOST_CFLAGS += $(MBEDTLS_INC)
$(call obj,asan,$(CRYPTO_SRC)): ASAN_CFLAGS += $(MBEDTLS_INC)
$(call obj,covobj,$(CRYPTO_SRC)): COV_CFLAGS += $(MBEDTLS_INC)
$(call obj,fuzzobj,$(CRYPTO_SRC)): FUZZ_CFLAGS += $(MBEDTLS_INC)
$(call obj,fw,$(CRYPTO_SRC) $(CRYPTO_LIBC_SRC)): FW_CFLAGS += $(MBEDTLS_INC) $(FW_LIBC_INC)

$(FONT_SRC): scripts/psf2c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)scripts/psf2c $(FONT_PSF) > $@.tmp && mv $@.tmp $@
$(LOGO_SRC): scripts/mklogo
	@mkdir -p $(dir $@)
	$(Q)scripts/mklogo c $@.tmp && mv $@.tmp $@

# ---- Host objects (core for ember-run and unit tests; sanitizer and fuzzer variants) ----
$(BUILD)/host/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/host/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASAN_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzzobj/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/covobj/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(COV_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/covobj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(COV_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASAN_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzzobj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(EMBER_RUN): $(call obj,host,$(FIRMWARE_SRC) $(HOSTED_SRC)) $(call mbedtls_obj,host)
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^ -lpng -lz -lm -lslirp

# The offline variable-store tool: the firmware's own store code, run on a file.
$(EMBER_VARSTORE): $(call obj,host,$(FIRMWARE_SRC) $(call find_c,tools/ember-varstore) platform/common/clock.c) $(call mbedtls_obj,host)
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^ -lm

# UEFI compression of a file (tools/ember-compress): the encoder and the firmware's decoder.
$(EMBER_COMPRESS): $(call obj,host,lib/uefi_decompress.c tools/lib/uefi_compress.c tools/lib/host_file.c $(call find_c,tools/ember-compress))
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^

# The firmware volume's editor (tools/ember-fw): the firmware's volume reader, the encoder.
$(EMBER_FW): $(call obj,host,lib/fv.c lib/fv_section.c lib/fv_build.c lib/crc32.c lib/guid.c lib/string.c lib/guids.c lib/uefi_decompress.c $(TOOLS_LIB_SRC) $(call find_c,tools/ember-fw))
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^

# The crypto tests' signatures, certificates and signed images, made by openssl, efitools,
# sbsigntool and osslsigncode (tests/crypto/mkartefacts) from Ember's apps and gnu-efi
# programs, and Debian's signed shim and GRUB (downloaded once, tests/crypto/debian_signed.py).
CRYPTO_TEST_DIR := $(abspath $(BUILD))/crypto-test
CRYPTO_TEST_EFIS := $(BUILD)/apps/var-test.efi $(BUILD)/apps/shell.efi \
	$(BUILD)/tests/programs/hello.efi $(BUILD)/tests/programs/shell_client.efi
$(CRYPTO_TEST_DIR)/digests.txt: tests/crypto/mkartefacts tests/crypto/debian_signed.py \
		$(CRYPTO_TEST_EFIS) | $(DEPS_STAMP)
	@echo "  GEN     $(CRYPTO_TEST_DIR)"
	$(Q)tests/crypto/mkartefacts $(CRYPTO_TEST_DIR) $(CRYPTO_TEST_EFIS)
CRYPTO_TEST_DEF := -DCRYPTO_TEST_DIR='"$(CRYPTO_TEST_DIR)"'
$(BUILD)/host/tests/unit/crypto_artefacts.o: HOST_CFLAGS += $(CRYPTO_TEST_DEF)
$(BUILD)/asan/tests/unit/crypto_artefacts.o: ASAN_CFLAGS += $(CRYPTO_TEST_DEF)
$(BUILD)/covobj/tests/unit/crypto_artefacts.o: COV_CFLAGS += $(CRYPTO_TEST_DEF)
$(UNIT_TESTS) $(UNIT_TESTS_ASAN) $(COV_DIR)/unit-tests: | $(CRYPTO_TEST_DIR)/digests.txt

# zlib: the oracle of the inflate tests.
$(UNIT_TESTS): $(call obj,host,$(FIRMWARE_SRC) $(UNIT_SRC)) $(call mbedtls_obj,host)
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^ -lm -lz
$(UNIT_TESTS_ASAN): $(call obj,asan,$(FIRMWARE_SRC) $(UNIT_SRC)) $(call mbedtls_obj,asan)
	@echo "  LD      $@"
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ -lm -lz

# The instrumented unit tests and ember-run of make coverage.
COV_DIR := $(BUILD)/cov
$(COV_DIR)/unit-tests: $(call obj,covobj,$(FIRMWARE_SRC) $(UNIT_SRC)) $(call mbedtls_obj,covobj)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -fprofile-instr-generate -o $@ $^ -lm -lz
$(COV_DIR)/ember-run: $(call obj,covobj,$(FIRMWARE_SRC) $(HOSTED_SRC)) $(call mbedtls_obj,covobj)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -fprofile-instr-generate -o $@ $^ -lpng -lz -lm -lslirp

$(BUILD)/fuzz/%: $(call obj,fuzzobj,$(FIRMWARE_SRC) $(FUZZ_SUPPORT_SRC) $(HOST_PURE_SRC)) $(call mbedtls_obj,fuzzobj) $(BUILD)/fuzzobj/tests/fuzz/%.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -fsanitize=fuzzer,address,undefined -o $@ $^ -lm

# ---- QEMU x86-64 firmware (build/qemu-x86_64/ember.fd, ember-code.fd, ember-vars.fd) ----
FW_CODE_SIZE := $(shell sed -n 's/^\#define FW_CODE_SIZE //p' platform/qemu-x86_64/reset/layout.h)
FW_VARS_SIZE := $(shell sed -n 's/^\#define FW_VARS_SIZE //p' platform/qemu-x86_64/reset/layout.h)
$(BUILD)/fw/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fw/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@
# The shell rides in the firmware image (platform/qemu-x86_64/boot/shell_blob.S), packed on
# its own: unpacked when it runs, not with the core at every reset.
$(FW_DIR)/shell.efi.deflate: $(BUILD)/apps/shell.efi scripts/deflate-blob scripts/mkfd
	@mkdir -p $(dir $@)
	$(Q)scripts/deflate-blob $< $@
# The setup screen (apps/setup) rides after it, packed the same way.
$(FW_DIR)/setup.efi.deflate: $(BUILD)/apps/setup.efi scripts/deflate-blob scripts/mkfd
	@mkdir -p $(dir $@)
	$(Q)scripts/deflate-blob $< $@
$(BUILD)/fw/platform/qemu-x86_64/boot/shell_blob.o: platform/qemu-x86_64/boot/shell_blob.S $(FW_DIR)/shell.efi.deflate $(FW_DIR)/setup.efi.deflate
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(FW_CFLAGS) -DEMBER_SHELL_PACKED='"$(FW_DIR)/shell.efi.deflate"' \
		-DEMBER_SETUP_PACKED='"$(FW_DIR)/setup.efi.deflate"' -c $< -o $@
# --trace (core/trace) is a hosted tool: the QEMU image goes without it.
QEMU_FIRMWARE_SRC := $(filter-out core/trace/%,$(FIRMWARE_SRC))
# The core's hot functions (platform/qemu-x86_64/hot.list, scripts/profile-hot) as input
# sections of its .text, and the strings of the objects without hot code as those of its
# .cold_rodata (scripts/hot-ld); every other function goes to the cold part too (core.ld). The files of
# the path that unpacks it on a page fault, and of what runs before that path is set up, keep
# one .text section each, which core.ld takes whole: hot, static helpers included.
QEMU_CORE_OBJ := $(call obj,fw,$(QEMU_FIRMWARE_SRC) $(FREESTANDING_SRC) $(CRYPTO_LIBC_SRC) $(QEMU_SRC)) $(call mbedtls_obj,fw)
$(FW_DIR)/hot_text.ld $(FW_DIR)/cold_rodata.ld &: platform/qemu-x86_64/hot.list scripts/hot-ld $(QEMU_CORE_OBJ)
	@mkdir -p $(dir $@)
	$(Q)scripts/hot-ld $< $(FW_DIR) $(filter %.o,$^)
QEMU_EARLY_SRC := $(addprefix platform/qemu-x86_64/,main.c cpu/entry.c cpu/interrupts.c \
	cpu/paging.c cpu/cold.c devices/serial_raw.c)
$(call obj,fw,$(QEMU_EARLY_SRC)): FW_CFLAGS += -fno-function-sections
$(call obj,fw,$(QEMU_EARLY_SRC)): Makefile
$(FW_DIR)/ember-core.elf: $(QEMU_CORE_OBJ) platform/qemu-x86_64/core.ld $(FW_DIR)/hot_text.ld $(FW_DIR)/cold_rodata.ld
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)ld.lld -static -nostdlib --gc-sections --emit-relocs -L $(FW_DIR) -T platform/qemu-x86_64/core.ld -o $@ $(filter %.o,$^)
# The firmware is built for size, but for the code whose loops a boot spends its time in:
# the library's frame-buffer fills, memory and string moves, formatting and CRC-32, and the
# variable store's scans (the rest of lib/ and varstore/ at -Oz: the same virtual boot time,
# 2.7 KiB less packed core). The inflate code of the reset stage stays small: it must fit
# in 8 KiB.
FW_HOT_SRC := lib/crc32.c lib/fb_blt.c lib/format.c lib/string.c $(FREESTANDING_SRC) \
	$(wildcard varstore/store_*.c) varstore/flash_ram.c
$(call obj,fw,$(FW_HOT_SRC)): FW_CFLAGS += -O2
# The reset stage unpacks the core with lib/inflate.c, run from flash: its linker script
# takes whole .text sections, so these two keep one section per kind, and -Os (the stage has
# its 8 KiB whatever its size, and unpacking is on every boot's path).
$(BUILD)/fw/lib/inflate.o $(BUILD)/fw/lib/call_filter.o $(BUILD)/fw/platform/qemu-x86_64/reset/reset.o: \
	FW_CFLAGS += -fno-function-sections -fno-data-sections -Os
# The verified start's check (reset/verify.c) is on every boot's path too: -O2.
$(BUILD)/fw/platform/qemu-x86_64/reset/verify.o: FW_CFLAGS += -fno-function-sections -fno-data-sections -O2
$(FW_DIR)/reset.elf: $(BUILD)/fw/platform/qemu-x86_64/reset/verify.o $(BUILD)/fw/platform/qemu-x86_64/reset/s3_resume.o
$(FW_DIR)/reset.elf: $(BUILD)/fw/platform/qemu-x86_64/reset/reset.o $(BUILD)/fw/lib/inflate.o $(BUILD)/fw/lib/call_filter.o platform/qemu-x86_64/reset/reset.ld
	@mkdir -p $(dir $@)
	$(Q)ld.lld -T platform/qemu-x86_64/reset/reset.ld -e reset_vector -o $@ $(filter %.o,$^)
$(FW_DIR)/%.bin: $(FW_DIR)/%.elf
	$(Q)llvm-objcopy -O binary $< $@
$(FW_IMAGES) &: $(FW_DIR)/ember-core.bin $(FW_DIR)/ember-core.elf $(FW_DIR)/reset.bin scripts/mkfd
	@echo "  MKFD    $(FW_DIR)/ember.fd"
	$(Q)scripts/mkfd --core $(FW_DIR)/ember-core.bin --core-elf $(FW_DIR)/ember-core.elf \
		--packed $(FW_DIR)/ember-core.deflate --reset $(FW_DIR)/reset.bin --code-size $(FW_CODE_SIZE) --vars-size $(FW_VARS_SIZE) \
		--code $(FW_DIR)/ember-code.fd --vars $(FW_DIR)/ember-vars.fd --bios $(FW_DIR)/ember.fd
$(FW_DIR)/ember-x86_64.json: scripts/firmware-json
	@mkdir -p $(dir $@)
	$(Q)scripts/firmware-json $(FW_DIR) > $@
# The Secure Boot VARS template: Microsoft's KEK and db and the dbx of Debian's
# OVMF_VARS_4M.ms.fd, a PK made at build time (scripts/mkvars-ms, docs/varstore.md).
OVMF_MS_VARS ?= /usr/share/OVMF/OVMF_VARS_4M.ms.fd
$(FW_DIR)/ember-vars.ms.fd: $(FW_DIR)/ember-vars.fd $(EMBER_VARSTORE) scripts/mkvars-ms
	@echo "  MKVARS  $@"
	$(Q)scripts/mkvars-ms --varstore $(EMBER_VARSTORE) --empty $(FW_DIR)/ember-vars.fd \
		--ovmf $(OVMF_MS_VARS) --out $@
$(FW_DIR)/ember-x86_64-secboot.json: scripts/firmware-json
	@mkdir -p $(dir $@)
	$(Q)scripts/firmware-json --secure-boot $(FW_DIR) > $@
firmware: $(FW_IMAGES) $(FW_DIR)/ember-x86_64.json $(FW_DIR)/ember-vars.ms.fd \
	$(FW_DIR)/ember-x86_64-secboot.json

# `make install PREFIX=/usr/local`: ember-run, the images in PREFIX/share/ember, and their
# firmware descriptor where QEMU's firmware.json says libvirt looks: /usr/share/qemu/firmware
# (a distribution's, for PREFIX=/usr), /etc/qemu/firmware (the host's own, for any other
# PREFIX: PREFIX/share/qemu/firmware is never read) or the user's
# FIRMWARE_JSON_DIR=~/.config/qemu/firmware (qemu:///session). DESTDIR is put before each.
PREFIX ?= /usr/local
FIRMWARE_JSON_DIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/qemu/firmware,/etc/qemu/firmware)
install: firmware $(EMBER_RUN) aarch64
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ember \
		$(DESTDIR)$(PREFIX)/share/ember/gdb $(DESTDIR)$(FIRMWARE_JSON_DIR)
	install -m 755 $(EMBER_RUN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 scripts/gdb/ember.py $(DESTDIR)$(PREFIX)/share/ember/gdb/
	install -m 644 $(FW_IMAGES) $(FW_DIR)/ember-vars.ms.fd $(DESTDIR)$(PREFIX)/share/ember/
	scripts/firmware-json $(PREFIX)/share/ember \
		> $(DESTDIR)$(FIRMWARE_JSON_DIR)/70-ember-x86_64.json
	scripts/firmware-json --secure-boot $(PREFIX)/share/ember \
		> $(DESTDIR)$(FIRMWARE_JSON_DIR)/71-ember-x86_64-secboot.json
	chmod 644 $(DESTDIR)$(FIRMWARE_JSON_DIR)/70-ember-x86_64.json \
		$(DESTDIR)$(FIRMWARE_JSON_DIR)/71-ember-x86_64-secboot.json
	install -d $(DESTDIR)$(PREFIX)/share/ember/aarch64
	install -m 644 $(A64_DIR)/ember-code.fd $(A64_DIR)/ember-vars.fd \
		$(DESTDIR)$(PREFIX)/share/ember/aarch64/
	scripts/firmware-json --aarch64 $(PREFIX)/share/ember/aarch64 \
		> $(DESTDIR)$(FIRMWARE_JSON_DIR)/72-ember-aarch64.json
	chmod 644 $(DESTDIR)$(FIRMWARE_JSON_DIR)/72-ember-aarch64.json

# ---- PE32+ applications (apps/NAME/*.c + apps/lib + lib) ----
PE_LIB_OBJ := $(call obj,pe,$(LIB_SRC) $(FREESTANDING_SRC) $(APP_LIB_SRC))
$(BUILD)/pe/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(PE_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/pe/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(PE_CFLAGS) -MMD -MP -c $< -o $@
# Keep intermediate objects (the app rule would otherwise delete them after linking).
.SECONDARY:
.SECONDEXPANSION:
$(BUILD)/apps/%.efi: $$(call obj,pe,$$(call find_c,apps/$$*)) $$(patsubst %.S,$(BUILD)/pe/%.o,$$(wildcard apps/$$*/*.S)) $(PE_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(PE_LDFLAGS) -o $@ $^

# forms-driver is forms-test linked as a boot service driver: it stays resident with its form
# set (for the setup screen's device settings).
$(BUILD)/apps/forms-driver.efi: $(call obj,pe,$(call find_c,apps/forms-test)) $(PE_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(PE_LDFLAGS) -Wl,-subsystem:efi_boot_service_driver -o $@ $^

# setup-backends-test drives the setup screen's Secure Boot and settings backends.
SETUP_BACKENDS := $(wildcard apps/setup/sb_keys.c apps/setup/settings_display.c apps/setup/settings_serial.c \
	apps/setup/settings_time.c apps/setup/settings_sysinfo.c apps/setup/pure/sb_file.c apps/setup/pure/settings_memory.c)
$(BUILD)/apps/setup-backends-test.efi: $(call obj,pe,$(SETUP_BACKENDS))

# decompress-test decodes streams Ember's encoder makes at build time.
DECOMPRESS_STREAMS := $(BUILD)/gen/decompress_streams.c
$(DECOMPRESS_STREAMS): apps/decompress-test/mkstreams $(EMBER_COMPRESS) $(BUILD)/tests/programs/exit_status.efi
	@mkdir -p $(dir $@)
	$(Q)apps/decompress-test/mkstreams $(EMBER_COMPRESS) $(BUILD)/tests/programs/exit_status.efi > $@.tmp && mv $@.tmp $@
$(BUILD)/apps/decompress-test.efi: $(call obj,pe,$(DECOMPRESS_STREAMS))

# ---- Test programs built with gnu-efi, standing in for third-party software ----
GNUEFI_CFLAGS := -g -I/usr/include/efi -I/usr/include/efi/x86_64 -fpic -ffreestanding \
	-fno-stack-protector -fno-stack-check -fshort-wchar -mno-red-zone \
	-maccumulate-outgoing-args -Wall -O2
# Makefile too: a change of GNUEFI_CFLAGS (-g, for ember-run --gdb) rebuilds them.
$(BUILD)/tests/programs/%.efi: tests/programs/%.c Makefile | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GNU-EFI $@"
	$(Q)gcc $(GNUEFI_CFLAGS) -c $< -o $(@:.efi=.o)
	$(Q)ld -shared -Bsymbolic -nostdlib -znocombreloc -T /usr/lib/elf_x86_64_efi.lds \
		/usr/lib/crt0-efi-x86_64.o $(@:.efi=.o) -o $(@:.efi=.so) -L/usr/lib -lefi -lgnuefi
	$(Q)objcopy -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 \
		--subsystem=10 $(@:.efi=.so) $@

# ---- Tests ----
check: all $(UNIT_TESTS) $(UNIT_TESTS_ASAN) $(FUZZERS) $(COV_DIR)/unit-tests $(COV_DIR)/ember-run
	$(Q)BUILD=$(BUILD) scripts/check

# (pe_real_binaries loads the gnu-efi test programs.)
check-unit: $(UNIT_TESTS) $(UNIT_TESTS_ASAN) $(PROGRAM_EFIS)
	$(Q)$(UNIT_TESTS)
	$(Q)$(UNIT_TESTS_ASAN)

check-integration: all
	$(Q)/usr/bin/python3 -m pytest -q -p no:cacheprovider tests/integration

# enroll's input readers live in the tool, not in the firmware.
$(BUILD)/fuzz/fuzz_enroll_input: $(BUILD)/fuzzobj/tools/ember-varstore/enroll_input.o
check-fuzz: $(FUZZERS)
	$(Q)scripts/run-fuzzers $(FUZZERS)

# The hardware-agnostic code (core, drivers, varstore, bds, lib, crypto and mbedTLS) built
# for AArch64 with the firmware's flags, so the next port starts from code that compiles;
# nothing is linked (docs/design.md, "Architectures"). Each object is removed before it is
# built, so the objects present afterwards are exactly the sources that compiled.
AARCH64_CFLAGS := $(COMMON) -Os --target=aarch64-unknown-none-elf -ffreestanding -fno-builtin \
	-fshort-wchar -fno-stack-protector -fpie -fno-asynchronous-unwind-tables \
	-fno-unwind-tables $(FW_LIBC_INC)
AARCH64_SRC := $(LIB_SRC) $(FREESTANDING_SRC) $(wildcard lib/aarch64/*.S) $(CORE_SRC) \
	$(DRIVER_SRC) $(VARSTORE_SRC) $(BDS_SRC) $(NET_SRC) $(SECURITY_SRC) $(CRYPTO_SRC) $(CRYPTO_LIBC_SRC)
AARCH64_OBJS := $(call obj,aarch64-check,$(AARCH64_SRC)) $(call mbedtls_obj,aarch64-check)
$(call obj,aarch64-check,$(CRYPTO_SRC)): AARCH64_CFLAGS += $(MBEDTLS_INC)
$(call obj,aarch64-check,$(CRYPTO_SRC)): | $(MBEDTLS_STAMP)
$(BUILD)/aarch64-check/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@) && rm -f $@
	$(Q)$(CC) $(call lib_flags,$(AARCH64_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/aarch64-check/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@) && rm -f $@
	$(Q)$(CC) $(AARCH64_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/aarch64-check/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@) && rm -f $@
	$(Q)$(CC) $(AARCH64_CFLAGS) -MMD -MP -c $< -o $@
aarch64-objs: $(AARCH64_OBJS)

check-aarch64: | $(MBEDTLS_STAMP)
	@mkdir -p $(BUILD)/aarch64-check
	$(Q)$(MAKE) -k --no-print-directory aarch64-objs >$(BUILD)/aarch64-check/log 2>&1; \
	passed=0; failed=0; \
	for o in $(AARCH64_OBJS); do \
		if [ -f $$o ]; then passed=$$((passed + 1)); \
		else failed=$$((failed + 1)); echo "FAIL $$o"; fi; \
	done; \
	if [ $$failed != 0 ]; then grep -E 'error' $(BUILD)/aarch64-check/log | head -40; fi; \
	echo "aarch64 compile: $$passed passed, $$failed failed"; [ $$failed = 0 ]

# ---- QEMU AArch64 firmware (build/qemu-aarch64/ember-code.fd, ember-vars.fd; issue 17) ----
# What works and what does not: docs/aarch64.md. The same core, drivers and library as the
# x86-64 image, for AArch64, with platform/qemu-aarch64; stored unpacked at the start of
# the code flash, which QEMU's pflash wants 64 MiB long. No FP/SIMD registers in the
# firmware: the interrupt vector saves only the general ones. x18 is never touched: the
# UEFI binding keeps it for the OS (Linux checks it across runtime calls).
A64_DIR := $(BUILD)/qemu-aarch64
A64_FLASH_SIZE := 67108864
A64_CFLAGS := $(AARCH64_CFLAGS) -mgeneral-regs-only -ffixed-x18 -Iplatform/qemu-aarch64 \
	-ffunction-sections -fdata-sections
A64_SRC := $(filter-out core/trace/%,$(AARCH64_SRC)) $(FONT_SRC) $(LOGO_SRC) \
	$(call find_c,platform/qemu-aarch64) $(wildcard platform/qemu-aarch64/*.S) \
	$(call find_c,platform/common)
$(call obj,fw-aarch64,$(CRYPTO_SRC) $(CRYPTO_LIBC_SRC)): A64_CFLAGS += $(MBEDTLS_INC)
$(call obj,fw-aarch64,$(CRYPTO_SRC)): | $(MBEDTLS_STAMP)
$(BUILD)/fw-aarch64/mbedtls/%.o: $(MBEDTLS_DIR)/library/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(call lib_flags,$(A64_CFLAGS)) -MMD -MP -c $< -o $@
$(BUILD)/fw-aarch64/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(A64_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fw-aarch64/%.o: %.S | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(A64_CFLAGS) -MMD -MP -c $< -o $@
# The shell and the setup screen ride in the image (platform/qemu-aarch64/shell_blob.S), unpacked.
$(BUILD)/fw-aarch64/platform/qemu-aarch64/shell_blob.o: platform/qemu-aarch64/shell_blob.S $(A64_DIR)/apps/shell.efi \
	$(A64_DIR)/apps/setup.efi
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(A64_CFLAGS) -DEMBER_SHELL='"$(A64_DIR)/apps/shell.efi"' \
		-DEMBER_SETUP='"$(A64_DIR)/apps/setup.efi"' -c $< -o $@
$(A64_DIR)/ember.elf: $(call obj,fw-aarch64,$(A64_SRC)) $(call mbedtls_obj,fw-aarch64) platform/qemu-aarch64/core.ld
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)ld.lld -static -nostdlib --gc-sections --emit-relocs -T platform/qemu-aarch64/core.ld -o $@ $(filter %.o,$^)
# The words of .data that hold addresses, for SetVirtualAddressMap (scripts/a64-pointer-slots).
$(A64_DIR)/ember-code.fd: $(A64_DIR)/ember.elf scripts/a64-pointer-slots
	$(Q)llvm-objcopy -O binary $< $@.tmp && scripts/a64-pointer-slots $< $@.tmp && \
		truncate -s $(A64_FLASH_SIZE) $@.tmp && mv $@.tmp $@
# The variables' bank: erased flash (all 0xFF), which the store formats at its first start.
$(A64_DIR)/ember-vars.fd: Makefile
	@mkdir -p $(dir $@)
	$(Q)head -c $(A64_FLASH_SIZE) /dev/zero | tr '\000' '\377' > $@.tmp && mv $@.tmp $@
# The AArch64 platform's own test programs (tests/aarch64: timer, reset, keys, variables): PE32+ of
# machine type 0xAA64, built like the apps (clang's Windows target and lld-link) with the
# UEFI headers of include/efi.
A64_PE_CFLAGS := $(COMMON) -Oz --target=aarch64-unknown-windows -ffreestanding -fno-builtin \
	-fshort-wchar -fno-stack-protector -mno-stack-arg-probe
A64_PROGRAMS := $(patsubst tests/aarch64/%.c,$(A64_DIR)/%.efi,$(wildcard tests/aarch64/*.c))
$(A64_DIR)/%.efi: tests/aarch64/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  PE      $@"
	$(Q)$(CC) $(A64_PE_CFLAGS) -c $< -o $(@:.efi=.o)
	$(Q)$(CC) --target=aarch64-unknown-windows -nostdlib -fuse-ld=lld -Wl,-entry:efi_main \
		-Wl,-subsystem:efi_application -o $@ $(@:.efi=.o)
# Ember's own applications for AArch64 (the conformance app, the shell, var-test, setup), built as
# the x86-64 ones are (apps/NAME + apps/lib + lib) for the AArch64 Windows target.
A64_APPS := conformance shell var-test setup
A64_APP_EFIS := $(patsubst %,$(A64_DIR)/apps/%.efi,$(A64_APPS))
A64_PE_LIB_OBJ := $(call obj,pe-aarch64,$(LIB_SRC) $(FREESTANDING_SRC) $(APP_LIB_SRC))
$(BUILD)/pe-aarch64/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(A64_PE_CFLAGS) -ffunction-sections -fdata-sections -MMD -MP -c $< -o $@
$(A64_DIR)/apps/%.efi: $$(call obj,pe-aarch64,$$(call find_c,apps/$$*)) $(A64_PE_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) --target=aarch64-unknown-windows -nostdlib -fuse-ld=lld -Wl,-entry:efi_main \
		-Wl,-subsystem:efi_application -o $@ $^
# The gnu-efi test programs (tests/programs: the article's two, and the two the shell's
# script suite runs), for AArch64 over a small gnu-efi stand-in (tests/aarch64/gnu-efi:
# Debian has no gnu-efi for arm64 on an amd64 host).
A64_GNUEFI_PROGRAMS := $(patsubst %,$(A64_DIR)/programs/%.efi,hello gop_mode shell_client exit_status \
	memory_protection stack_overflow bad_getvariable)
A64_GNUEFI_CFLAGS := -std=gnu11 -g -Wall -Oz --target=aarch64-unknown-windows -ffreestanding \
	-fno-builtin -fshort-wchar -fno-stack-protector -mno-stack-arg-probe -Iinclude \
	-Itests/aarch64/gnu-efi
$(A64_DIR)/programs/%.efi: tests/programs/%.c $(BUILD)/pe-aarch64/tests/aarch64/gnu-efi/lib.o $(call obj,pe-aarch64,$(LIB_SRC) $(FREESTANDING_SRC)) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  PE      $@"
	$(Q)$(CC) $(A64_GNUEFI_CFLAGS) -c $< -o $(@:.efi=.o)
	$(Q)$(CC) --target=aarch64-unknown-windows -nostdlib -fuse-ld=lld -Wl,-entry:efi_main \
		-Wl,-subsystem:efi_application -o $@ $(@:.efi=.o) $(filter %.o,$(wordlist 2,$(words $^),$^))
# libvirt's firmware descriptor of the AArch64 pair (make install puts both in share/ember/aarch64).
$(A64_DIR)/ember-aarch64.json: scripts/firmware-json
	@mkdir -p $(dir $@)
	$(Q)scripts/firmware-json --aarch64 $(A64_DIR) > $@
aarch64: $(A64_DIR)/ember-code.fd $(A64_DIR)/ember-vars.fd $(A64_PROGRAMS) $(A64_APP_EFIS) $(A64_GNUEFI_PROGRAMS) \
	$(A64_DIR)/ember-aarch64.json
.PHONY: aarch64
# Built by make (tests/qemu/test_aarch64.py runs it in make check).
all: aarch64

# Line coverage of the firmware code (core, drivers, varstore, bds, lib, net) over the unit and
# integration tests; fails below COVERAGE_MIN percent.
coverage: all $(COV_DIR)/unit-tests $(COV_DIR)/ember-run
	$(Q)BUILD=$(BUILD) scripts/coverage

bench: all
	$(Q)EMBER_BUILD=$(BUILD) scripts/bench

# make run ARCH=aarch64: the demo on QEMU's AArch64 virt machine.
run: all
	$(Q)EMBER_BUILD=$(BUILD) ARCH=$(ARCH) scripts/run-demo

# Every C file of the project (the fuzz corpora hold data, not code).
FORMAT_FILES = $(shell git ls-files --cached --others --exclude-standard '*.[ch]' 2>/dev/null | grep -v '^tests/fuzz/corpus/')
format:
	clang-format -i $(FORMAT_FILES)
# make check fails on code clang-format would change.
check-format: $(DEPS_STAMP)
	$(Q)clang-format --dry-run -Werror $(FORMAT_FILES) && echo "format: $(words $(FORMAT_FILES)) passed, 0 failed"

clean:
	rm -rf $(BUILD)

# (BUILD/linux-cache holds unpacked Debian packages for the Linux tests: not ours.)
-include $(shell find $(BUILD) -path $(BUILD)/linux-cache -prune -o -name '*.d' -type f -print 2>/dev/null)
