//! Comments: the conversation on any asset the caller can view (spec 001 §7: polled every 5 s).
//! Not gated by flighting. An asset the caller cannot see answers the same 404 as one that does
//! not exist, whatever its kind.

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets,
    auth::AuthUser,
    db::{self, assets::AssetRow, comments},
    error::{ApiError, AppJson, ErrorBody, Result},
    state::AppState,
    views::CommentView,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_comments))
        .routes(routes!(create_comment))
}

/// A comment has at most this many characters.
pub const COMMENT_MAX: usize = 5000;
/// The conversation shows the newest comments, at most this many.
pub const CONVERSATION_MAX: i64 = 500;

/// The asset, when the caller can view it (any kind); one 404 otherwise.
async fn viewable(state: &AppState, caller: &AuthUser, id: &str) -> Result<AssetRow> {
    let (asset, _) = assets::visible(state, &caller.user, id.trim(), None)
        .await?
        .ok_or_else(|| assets::not_found(None))?;
    Ok(asset)
}

#[derive(Deserialize, ToSchema)]
pub struct ListCommentsRequest {
    pub comments: CommentsOf,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct CommentsOf {
    /// The asset's id.
    pub reference_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct Conversation {
    pub success: bool,
    /// Oldest first (the newest 500).
    pub conversation: Vec<CommentView>,
}

/// The conversation on an asset (view access), oldest first.
#[utoipa::path(post, path = "/v1/comment/list", tag = "comments", request_body = ListCommentsRequest,
    responses(
        (status = 200, body = Conversation),
        (status = 404, description = "Item not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn list_comments(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<ListCommentsRequest>,
) -> Result<Json<Conversation>> {
    let asset = viewable(&state, &caller, &req.comments.reference_id).await?;
    let rows = comments::for_asset(&state.db, &asset.id, CONVERSATION_MAX).await?;
    Ok(Json(Conversation {
        success: true,
        conversation: rows.iter().map(CommentView::from).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateCommentRequest {
    pub comment: NewComment,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewComment {
    /// At most 5000 characters.
    pub content: String,
    /// The asset's id.
    pub reference_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct CommentResponse {
    pub success: bool,
    pub comment: CommentView,
}

/// Add a comment to an asset (view access is enough).
#[utoipa::path(post, path = "/v1/comment/createComment", tag = "comments", request_body = CreateCommentRequest,
    responses(
        (status = 201, body = CommentResponse),
        (status = 400, description = "Empty comment not allowed / A comment can have at most 5000 characters", body = ErrorBody),
        (status = 404, description = "Item not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn create_comment(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateCommentRequest>,
) -> Result<(StatusCode, Json<CommentResponse>)> {
    let c = req.comment;
    let asset = viewable(&state, &caller, &c.reference_id).await?;
    let content = c.content.trim();
    if content.is_empty() {
        return Err(ApiError::bad_request(
            "comment_required",
            "Empty comment not allowed",
        ));
    }
    if content.chars().count() > COMMENT_MAX {
        return Err(ApiError::bad_request(
            "comment_too_long",
            format!("A comment can have at most {COMMENT_MAX} characters"),
        ));
    }
    let u = &caller.user;
    let name = format!("{} {}", u.first_name, u.last_name);
    let row = comments::CommentRow {
        // Time-ordered, so comments of the same second keep their order.
        id: uuid::Uuid::now_v7().to_string(),
        asset_id: asset.id,
        author_uid: Some(u.uid.clone()),
        author_display_name: if name.trim().is_empty() {
            u.email.clone()
        } else {
            name.trim().to_owned()
        },
        content: content.to_owned(),
        created_at: db::now(),
    };
    comments::insert(&state.db, &row).await?;
    Ok((
        StatusCode::CREATED,
        Json(CommentResponse {
            success: true,
            comment: CommentView::from(&row),
        }),
    ))
}
