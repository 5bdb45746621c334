import Scenery
