/// Places that name the views along them: `from.subviews[3] "heroImage" .subviews[0].image`
/// for a problem in the first subview of the view named `heroImage`. A
/// message about a deep view then reads as the author thinks of the scene,
/// by the names they gave, and still counts its way there. A view without a
/// name (or with an empty one) is shown by its index alone.
extension Scene {
    /// `place` with the names of the views it passes through in this scene; places
    /// outside the views (`canvas.width`), or past a view the scene does not have, keep what they have.
    public func naming(_ place: ScenePlace) -> ScenePlace {
        var named = place
        let components = place.components
        guard case .key(let screenName)? = components.first, let screen = Screen(rawValue: screenName) else { return named }
        var view = root(screen)
        var reached = 1
        while true {
            if let name = view.name, !name.isEmpty { named.viewNames[reached] = name }
            guard reached + 2 <= components.count, components[reached] == .key("subviews"),
                case .index(let i) = components[reached + 1], view.subviews.indices.contains(i)
            else { break }
            view = view.subviews[i]
            reached += 2
        }
        return named
    }

    /// The place of the view at `address`, with the names along it.
    public func namedPlace(of address: ViewAddress) -> ScenePlace { naming(address.place) }
}

extension SceneProblem {
    /// This problem with its place naming the views along it in `scene`.
    public func naming(in scene: Scene) -> SceneProblem {
        var named = self
        named.place = scene.naming(place)
        return named
    }
}
