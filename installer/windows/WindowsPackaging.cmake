# Windows installer: NSIS, with windeployqt gathering Qt's DLLs and plugins.
# UNTRIED: written for Windows 10/11, MSVC 2019+, Qt 6.4+, NSIS 3 and CMake >= 3.25; it has never been run on this
# project (we build on Debian only). Run it through build-installer.ps1 beside this file. See docs/INSTALL.md.
# Known blocker: wirebench_core links libsmbclient, which has no Windows port; the build stops at
# find_package/pkg_check_modules until the SMB driver gets a Windows implementation (UNC paths) or is optional.

set(res ${PROJECT_SOURCE_DIR}/resources)

# Qt's own deployment tool, next to qmake in the Qt installation.
find_program(WINDEPLOYQT_EXECUTABLE windeployqt
    HINTS "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}" "$ENV{Qt6_DIR}/../../../bin"
    REQUIRED)

# Runs at install time (also when cpack stages the package): Qt DLLs, platform and image plugins
# (qwindows, qsvg, sqlite driver) and the MSVC runtime next to the three executables, then every other
# non-system DLL they need (libcurl, QCustomPlot, ...), found in the directories of CMAKE_PREFIX_PATH.
install(CODE "
    set(bindir \"\${CMAKE_INSTALL_PREFIX}/bin\")
    foreach(exe wirebench.exe wirebench-cli.exe wirebenchd.exe)
        execute_process(
            COMMAND \"${WINDEPLOYQT_EXECUTABLE}\" --no-translations --compiler-runtime --dir \"\${bindir}\"
                    \"\${bindir}/\${exe}\"
            RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR \"windeployqt failed for \${exe} (exit \${rc}): check that it belongs to the Qt used for the build\")
        endif()
    endforeach()
    file(GET_RUNTIME_DEPENDENCIES
        EXECUTABLES \"\${bindir}/wirebench.exe\" \"\${bindir}/wirebench-cli.exe\" \"\${bindir}/wirebenchd.exe\"
        DIRECTORIES ${CMAKE_PREFIX_PATH} \"${QT6_INSTALL_PREFIX}/bin\"
        PRE_EXCLUDE_REGEXES \"^api-ms-.*\" \"^ext-ms-.*\"
        POST_EXCLUDE_REGEXES \".*[Ss]ystem32/.*\"
        RESOLVED_DEPENDENCIES_VAR deps
        UNRESOLVED_DEPENDENCIES_VAR missing)
    foreach(dll IN LISTS deps)
        file(COPY \"\${dll}\" DESTINATION \"\${bindir}\")
    endforeach()
    if(missing)
        message(WARNING \"DLLs not found (add their folder to CMAKE_PREFIX_PATH): \${missing}\")
    endif()
")

set(CPACK_GENERATOR "NSIS")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Wirebench")
set(CPACK_NSIS_DISPLAY_NAME "Wirebench ${PROJECT_VERSION}")
set(CPACK_NSIS_PACKAGE_NAME "Wirebench")
set(CPACK_NSIS_MUI_ICON "${res}/icons/wirebench.ico")
set(CPACK_NSIS_MUI_UNIICON "${res}/icons/wirebench.ico")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\wirebench.exe")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH ON)          # offers to put bin\ (wirebench-cli, wirebenchd) on PATH
set(CPACK_PACKAGE_EXECUTABLES "wirebench" "Wirebench")   # Start menu shortcut
set(CPACK_CREATE_DESKTOP_LINKS "wirebench")
set(CPACK_NSIS_URL_INFO_ABOUT "https://github.com/wirebench")
