// Kolize geometry core: pure collision maths on GLM float types, in namespace kz.
// No GL, SDL or I/O; no query allocates or throws.
#pragma once

#include "closest.hpp"                // IWYU pragma: export
#include "contact.hpp"                // IWYU pragma: export
#include "contact_convex.hpp"         // IWYU pragma: export
#include "convex.hpp"                 // IWYU pragma: export
#include "epa.hpp"                    // IWYU pragma: export
#include "explain_contact.hpp"        // IWYU pragma: export
#include "explain_contact_convex.hpp" // IWYU pragma: export
#include "explain_epa.hpp"            // IWYU pragma: export
#include "explain_gjk.hpp"            // IWYU pragma: export
#include "explain_ray.hpp"            // IWYU pragma: export
#include "explain_shape_cast.hpp"     // IWYU pragma: export
#include "gjk.hpp"                    // IWYU pragma: export
#include "mass_properties.hpp"        // IWYU pragma: export
#include "mesh_bvh.hpp"               // IWYU pragma: export
#include "overlap.hpp"                // IWYU pragma: export
#include "plane.hpp"                  // IWYU pragma: export
#include "raycast.hpp"                // IWYU pragma: export
#include "screen_ray.hpp"             // IWYU pragma: export
#include "shape_cast.hpp"             // IWYU pragma: export
#include "sweep.hpp"                  // IWYU pragma: export
#include "types.hpp"                  // IWYU pragma: export
