# `cmake --build build --target docs`: the Doxygen API reference of the public headers (lib/, integrators/,
# models/, validation/) in build/docs/html/index.html. Not part of `all`; only defined when Doxygen is found.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(DOXYGEN_PROJECT_NAME impactlab)
  set(DOXYGEN_PROJECT_BRIEF "time integration of contact problems")
  set(DOXYGEN_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/docs)
  set(DOXYGEN_FILE_PATTERNS *.h)
  set(DOXYGEN_RECURSIVE YES)
  set(DOXYGEN_EXTRACT_ALL YES)
  set(DOXYGEN_GENERATE_LATEX NO)
  set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
  set(DOXYGEN_QUIET YES)
  set(DOXYGEN_WARN_LOGFILE ${PROJECT_BINARY_DIR}/docs/doxygen-warnings.log)  # comment markup Doxygen misreads
  set(DOXYGEN_STRIP_FROM_PATH ${PROJECT_SOURCE_DIR})
  set(DOXYGEN_STRIP_FROM_INC_PATH ${PROJECT_SOURCE_DIR}/lib ${PROJECT_SOURCE_DIR})
  set(DOXYGEN_EXCLUDE_PATTERNS */benchmarks/* */fuzz/*)
  set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${PROJECT_SOURCE_DIR}/docs/api-mainpage.md)
  doxygen_add_docs(docs ${PROJECT_SOURCE_DIR}/docs/api-mainpage.md ${PROJECT_SOURCE_DIR}/lib
                   ${PROJECT_SOURCE_DIR}/integrators ${PROJECT_SOURCE_DIR}/models ${PROJECT_SOURCE_DIR}/validation
                   COMMENT "Doxygen API reference -> ${PROJECT_BINARY_DIR}/docs/html/index.html")
endif()
