# Compile settings every Wirebench target shares (as qBittorrent's CommonConfig.cmake).
add_library(wirebench_common INTERFACE)
target_compile_features(wirebench_common INTERFACE cxx_std_20)
target_compile_definitions(wirebench_common INTERFACE
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_CAST_TO_ASCII
    WIREBENCH_VERSION="${PROJECT_VERSION}")
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(wirebench_common INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
elseif(MSVC)
    target_compile_options(wirebench_common INTERFACE /W4)
endif()

# lld links the ~150 programs (most of them tests) about four times faster than ld.bfd: a link of a GUI test takes
# 1.4 s instead of 5.6 s. WIREBENCH_LLD=OFF keeps the default linker.
option(WIREBENCH_LLD "Link with lld when the compiler can" ON)
if(WIREBENCH_LLD AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-fuse-ld=lld" WIREBENCH_HAVE_LLD)
    if(WIREBENCH_HAVE_LLD)
        add_link_options(-fuse-ld=lld)
    endif()
endif()

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()

# wirebench_add_test(NAME [GUI] [SERIAL] SOURCES... LIBS ...): one Qt Test executable per class or feature.
# ./test.sh runs the suite with ctest -j; SERIAL (implied by the label "lab") runs the test alone: a test that
# measures a rate against its theory or a peer tool, or makes network namespaces, interfaces or cgroups of its own.
function(wirebench_add_test name)
    cmake_parse_arguments(ARG "GUI;SERIAL" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE wirebench_common Qt6::Test ${ARG_LIBS})
    # Shared test helpers are included from tests/ ("support/CiRule.h").
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    add_test(NAME ${name} COMMAND ${name})
    set(env "WIREBENCH_SOURCE_DIR=${PROJECT_SOURCE_DIR}" "WIREBENCH_BINARY_DIR=${PROJECT_BINARY_DIR}")
    if(ARG_GUI)
        list(APPEND env "QT_QPA_PLATFORM=offscreen")
    endif()
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
    if(ARG_SERIAL OR "lab" IN_LIST ARG_LABELS)
        set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
    endif()
endfunction()
