# CPack: a Debian package (.deb) and a plain tarball (.tar.gz) of the installed tree.
#   cpack --config build-pkg/CPackConfig.cmake   (packaging/fullband.sh package does it all; in CI, build/)
set(CPACK_PACKAGE_NAME fullband)
set(CPACK_PACKAGE_VENDOR "FullBand")
# Debian requires a maintainer; set FULLBAND_PACKAGE_MAINTAINER when building a package for release.
set(FULLBAND_PACKAGE_MAINTAINER "FullBand maintainers" CACHE STRING "Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${FULLBAND_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY fullband)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build[^/]*/" "/\\\\.git/")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; CPack indents these lines for the control file.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "FullBand shows the ideas behind the transformer and latent feedback as live
labs: attention maps, the RoPE decay bound, the information capacity of a
decoding step, two toy models training side by side and what the wider
channel costs. Drag a slider and every chart redraws; export charts as PNG
for slides; step through a deck of scenes in lecture mode.")
# dpkg-shlibdeps (dpkg-dev) derives the library packages (libqt6*6, libtbb12, libstdc++6 ...)
# from the binary's NEEDED entries. Qt's platform plugins, the SVG icon engine and a font are
# loaded at run time, so they are named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, qt6-wayland")

set(CPACK_PACKAGE_FILE_NAME "fullband-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
include(CPack)
