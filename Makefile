# Install swiftcov from source (see scripts/install, which does the work):
#
#   make install                      # /usr/local/bin/swiftcov (may need sudo)
#   make install PREFIX=~/.local      # ~/.local/bin/swiftcov
#   make uninstall PREFIX=…
#   make version                      # the version this checkout installs

PREFIX ?= /usr/local

.PHONY: install uninstall version

install:
	scripts/install "$(DESTDIR)$(PREFIX)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/swiftcov"

version:
	@sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/SwiftCovModel/SwiftCov.swift
