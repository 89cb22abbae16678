# Install and export (docs/architecture.md "Install layout"):
#   <prefix>/include/impactlab/<lib subfolders>/…    e.g. "contact/power_law.h", "core/errors.h"
#   <prefix>/include/impactlab/integrators/…, models/…
#   <prefix>/include/impactlab/validation/<subfolders>/…  reachable as "registry/registries.h" and as
#                                                         "validation/registry/registries.h" (as in the tree)
#   <prefix>/lib/libimpactlab_{core,integrators,models,validation}.a
#   <prefix>/bin/impactlab
#   <prefix>/lib/cmake/impactlab/impactlabConfig.cmake (+ version file, exported targets impactlab::impactlab,
#                                                       impactlab::core, ::integrators, ::models, ::validation)
#   <prefix>/lib/pkgconfig/impactlab.pc
#   <prefix>/share/impactlab/scenarios/*.toml           the shipped scenarios
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(IMPACTLAB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/impactlab CACHE STRING
    "where impactlabConfig.cmake is installed, relative to the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/impactlab
        FILES_MATCHING PATTERN "*.h")
foreach(_folder integrators models validation)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_folder}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/impactlab/${_folder}
          FILES_MATCHING PATTERN "*.h" PATTERN "scenarios" EXCLUDE PATTERN "data" EXCLUDE
          PATTERN "references" EXCLUDE PATTERN "benchmarks" EXCLUDE PATTERN "fuzz" EXCLUDE)
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/validation/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/impactlab/scenarios
        FILES_MATCHING PATTERN "*.toml")

install(TARGETS core integrators models validation impactlab_all EXPORT impactlabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/impactlab)
install(TARGETS impactlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT impactlabTargets NAMESPACE impactlab:: DESTINATION ${IMPACTLAB_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/impactlabConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/impactlabConfig.cmake
                              INSTALL_DESTINATION ${IMPACTLAB_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/impactlabConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/impactlabConfig.cmake ${PROJECT_BINARY_DIR}/impactlabConfigVersion.cmake
        DESTINATION ${IMPACTLAB_INSTALL_CMAKEDIR})

# pkg-config, relocatable (prefix = the .pc file's folder/../..): the four static libraries in link order,
# then the shared libraries they use. Ceres ships no .pc file on Debian 12 (-lceres is linked directly; glog,
# which its headers use, through libglog.pc).
set(IMPACTLAB_PC_LIBS_PRIVATE "-lceres -lsundials_cvode -lsundials_kinsol -lsundials_nvecserial -lsundials_sunlinsoldense -lsundials_sunmatrixdense -lsundials_sunlinsolband -lsundials_sunmatrixband -lpthread")
if(MPI_CXX_FOUND)  # validation/mpi/ (Open MPI's C library)
  foreach(_lib IN LISTS MPI_CXX_LIBRARIES)
    string(APPEND IMPACTLAB_PC_LIBS_PRIVATE " ${_lib}")
  endforeach()
endif()
if(IMPACTLAB_HAVE_SICONOS)  # integrators/siconos/
  string(APPEND IMPACTLAB_PC_LIBS_PRIVATE " -lsiconos_kernel -lsiconos_numerics")
endif()
if(IMPACTLAB_HAVE_OPENMP)  # core/contact_threads.cpp, models/sphere_assembly.cpp
  foreach(_lib IN LISTS OpenMP_CXX_LIBRARIES)
    string(APPEND IMPACTLAB_PC_LIBS_PRIVATE " ${_lib}")
  endforeach()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/impactlab.pc.in ${PROJECT_BINARY_DIR}/impactlab.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/impactlab.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
