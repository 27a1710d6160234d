# macOS disk image: Wirebench.app (with wirebench-cli and wirebenchd inside Contents/MacOS), made
# self-contained by macdeployqt, on a DragNDrop DMG with a link to /Applications.
# UNTRIED: written for macOS 12+, Xcode command line tools, Qt 6.4+ and Homebrew (curl, samba for libsmbclient,
# qcustomplot built for Qt 6); it has never been run on this project. Run build-dmg.sh beside this file.
# Needs in app/gui/CMakeLists.txt (not done yet, see docs/INSTALL.md):
#     set_target_properties(wirebench PROPERTIES MACOSX_BUNDLE TRUE)
#     install(TARGETS wirebench BUNDLE DESTINATION . RUNTIME DESTINATION bin)

set(res ${PROJECT_SOURCE_DIR}/resources)
get_target_property(wb_is_bundle wirebench MACOSX_BUNDLE)
if(NOT wb_is_bundle)
    message(FATAL_ERROR "macOS packaging: the wirebench target is not an app bundle: set MACOSX_BUNDLE TRUE and "
        "add 'BUNDLE DESTINATION .' to its install() in app/gui/CMakeLists.txt (see installer/macos/MacPackaging.cmake)")
endif()

# The bundle icon, made from the committed PNGs with Apple's iconutil.
find_program(ICONUTIL_EXECUTABLE iconutil REQUIRED)
set(iconset ${CMAKE_CURRENT_BINARY_DIR}/wirebench.iconset)
set(icns ${CMAKE_CURRENT_BINARY_DIR}/wirebench.icns)
add_custom_command(OUTPUT ${icns}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${iconset}
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-16.png ${iconset}/icon_16x16.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-32.png ${iconset}/icon_16x16@2x.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-32.png ${iconset}/icon_32x32.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-64.png ${iconset}/icon_32x32@2x.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-128.png ${iconset}/icon_128x128.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-256.png ${iconset}/icon_128x128@2x.png
    COMMAND ${CMAKE_COMMAND} -E copy ${res}/icons/wirebench-256.png ${iconset}/icon_256x256.png
    COMMAND ${ICONUTIL_EXECUTABLE} -c icns -o ${icns} ${iconset}
    DEPENDS ${res}/icons/wirebench-16.png ${res}/icons/wirebench-256.png
    VERBATIM)
target_sources(wirebench PRIVATE ${icns})
set_source_files_properties(${icns} PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
set_target_properties(wirebench PROPERTIES
    MACOSX_BUNDLE_BUNDLE_NAME "Wirebench"
    MACOSX_BUNDLE_GUI_IDENTIFIER "io.github.wirebench.Wirebench"
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_ICON_FILE "wirebench.icns")

find_program(MACDEPLOYQT_EXECUTABLE macdeployqt
    HINTS "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}" REQUIRED)

# Runs at install time, after app/ installed the bundle and bin/: moves the command-line tools into the
# bundle so macdeployqt rewrites their Qt references too, then copies Qt frameworks and plugins into it.
install(CODE "
    set(app \"\${CMAKE_INSTALL_PREFIX}/wirebench.app\")
    foreach(tool wirebench-cli wirebenchd)
        file(RENAME \"\${CMAKE_INSTALL_PREFIX}/bin/\${tool}\" \"\${app}/Contents/MacOS/\${tool}\")
    endforeach()
    # wirebench-cli hands --chart and report to it, and looks beside itself first.
    file(RENAME \"\${CMAKE_INSTALL_PREFIX}/libexec/wirebench/wirebench-cli-charts\"
                \"\${app}/Contents/MacOS/wirebench-cli-charts\")
    file(REMOVE_RECURSE \"\${CMAKE_INSTALL_PREFIX}/bin\" \"\${CMAKE_INSTALL_PREFIX}/libexec\")
    execute_process(
        COMMAND \"${MACDEPLOYQT_EXECUTABLE}\" \"\${app}\" -always-overwrite
                \"-executable=\${app}/Contents/MacOS/wirebench-cli\"
                \"-executable=\${app}/Contents/MacOS/wirebench-cli-charts\"
                \"-executable=\${app}/Contents/MacOS/wirebenchd\"
        RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR \"macdeployqt failed (exit \${rc}): check that it belongs to the Qt used for the build\")
    endif()
")

set(CPACK_GENERATOR "DragNDrop")
set(CPACK_DMG_VOLUME_NAME "Wirebench ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT "UDZO")
set(CPACK_PACKAGE_ICON "${icns}")
