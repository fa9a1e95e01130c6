import { PLAYER_PATHS, WEB_PATHS } from '@tlprt/contract';
import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { setNavigator } from '../platform/api/navigation';
import { LoaderLogo } from '../platform/ui/LoaderLogo';
import ChangeEmailRoute from '../routes/changeEmail';
import CreateAccountRoute from '../routes/createAccount';
import CreatePasswordRoute from '../routes/createPassword';
import DeleteUserAccountRoute from '../routes/deleteUserAccount';
import EmailCancelHandlerRoute from '../routes/emailCancelHandler';
import EmailEventHandlerRoute from '../routes/emailEventHandler';
import EmailInviteHandlerRoute from '../routes/emailInviteHandler';
import ForgotPasswordRoute from '../routes/forgotPassword';
import { hashLoader } from '../routes/hashLoader';
import LoginRoute from '../routes/login';
import NotFoundRoute from '../routes/notFound';
import PasswordRecoveryRoute from '../routes/passwordRecovery';
import PendingRegistrationRoute from '../routes/pendingRegistration';
import RegisterRoute from '../routes/register';
import ResPasswordRoute from '../routes/resPassword';
import RouteErrorScreen from '../routes/routeError';

/** A screen loaded on its first visit, as its own chunk: the public pages (sign-in first) do not
 *  download the dashboard, its charts and its date pickers. */
const onDemand = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/** Every screen of spec §2, history mode. */
export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    errorElement: <RouteErrorScreen />,
    HydrateFallback: () => <LoaderLogo />,
    children: [
      // public
      { path: WEB_PATHS.login, element: <LoginRoute /> },
      { path: WEB_PATHS.register, element: <RegisterRoute /> },
      { path: WEB_PATHS.pendingRegistration, element: <PendingRegistrationRoute /> },
      { path: WEB_PATHS.forgotPassword, element: <ForgotPasswordRoute /> },
      { path: WEB_PATHS.passwordRecovery, element: <PasswordRecoveryRoute /> },
      { path: `${WEB_PATHS.createPassword}/:hash`, loader: hashLoader, element: <CreatePasswordRoute /> },
      { path: `${WEB_PATHS.resPassword}/:hash`, loader: hashLoader, element: <ResPasswordRoute /> },
      { path: WEB_PATHS.createAccount, element: <CreateAccountRoute /> },
      // e-mail links: public, they work signed in or out (each asks for a login when it needs one)
      { path: `${WEB_PATHS.changeEmail}/:hash`, element: <ChangeEmailRoute /> },
      { path: `${WEB_PATHS.deleteUserAccount}/:hash`, element: <DeleteUserAccountRoute /> },
      { path: `${WEB_PATHS.emailEventHandler}/:type/:hash`, element: <EmailEventHandlerRoute /> },
      { path: `${WEB_PATHS.emailCancelHandler}/:type/:teamId/:hash`, element: <EmailCancelHandlerRoute /> },
      { path: `${WEB_PATHS.emailInviteHandler}/:type/:hash`, element: <EmailInviteHandlerRoute /> },
      // the integration guide ("Documentation"): public, its own chunk
      { path: PLAYER_PATHS.guide, lazy: onDemand(() => import('../routes/docs')) },
      // authenticated (shared layout; no token → /)
      {
        lazy: async () => ({
          Component: (await import('./layout/DashboardLayout')).DashboardLayout,
        }),
        children: [
          { path: WEB_PATHS.statistics, lazy: onDemand(() => import('../routes/statistics')) },
          { path: WEB_PATHS.alerts, lazy: onDemand(() => import('../routes/alerts')) },
          { path: WEB_PATHS.integration, lazy: onDemand(() => import('../routes/integration')) },
          { path: WEB_PATHS.addDomains, lazy: onDemand(() => import('../routes/addDomains')) },
          { path: WEB_PATHS.origins, lazy: onDemand(() => import('../routes/origins')) },
          { path: WEB_PATHS.settings, lazy: onDemand(() => import('../routes/settings')) },
          { path: WEB_PATHS.team, lazy: onDemand(() => import('../routes/team')) },
          { path: WEB_PATHS.billing, lazy: onDemand(() => import('../routes/billing')) },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigator((path) => void router.navigate(path, { replace: true }));
  return router;
}
